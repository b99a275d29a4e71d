/** DESIGN §3: the collar's own WiFi network and local set-up page. */
export const SETUP_ADDRESS = 'http://192.168.4.1';
export const setupWifiName = (deviceId: string) => `PawGuard-${deviceId}`;

export function SetupSteps({ deviceId }: { deviceId: string }) {
  return (
    <ol className="grid list-decimal gap-1 pl-5 text-sm">
      <li>Power on the collar.</li>
      <li>
        Join the WiFi network{' '}
        <span className="font-mono font-medium">{setupWifiName(deviceId)}</span> from your phone or
        computer.
      </li>
      <li>
        Open <span className="font-mono font-medium break-all">{SETUP_ADDRESS}</span> in a browser.
      </li>
      <li>
        Enter the Device ID <span className="font-mono font-medium">{deviceId}</span> and your home
        WiFi details.
      </li>
    </ol>
  );
}
