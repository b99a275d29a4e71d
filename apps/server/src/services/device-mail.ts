import type { OutgoingMail } from '../repositories/outbox-repository.js';
import { escapeHtml, headerSafe } from './mail-templates.js';

/** The collar's own WiFi network and local set-up page (DESIGN §3, "Collar setup steps"). */
export const COLLAR_SETUP_ADDRESS = 'http://192.168.4.1';
export const collarWifiName = (deviceId: string) => `PawGuard-${deviceId}`;

/** Sent when auto-assign reserves a collar: the Device ID and how to set the collar up. */
export function collarSetupMail(p: {
  assignmentKey: string;
  to: string;
  ownerName: string;
  dogName: string;
  deviceId: string;
  deviceName: string;
}): OutgoingMail {
  const steps = [
    'Charge the collar and switch it on.',
    `On your phone or computer, join the WiFi network "${collarWifiName(p.deviceId)}".`,
    `Open ${COLLAR_SETUP_ADDRESS} in your browser.`,
    `Enter the Device ID ${p.deviceId} and your home WiFi details, then save.`,
  ];
  const text = [
    `Hi ${p.ownerName},`,
    '',
    `We have reserved a PawGuard collar for ${p.dogName}: "${p.deviceName}", Device ID ${p.deviceId}.`,
    '',
    'To set it up:',
    ...steps.map((s, i) => `${i + 1}. ${s}`),
    '',
    'Once the collar sends its first reading, you will see it live on your Devices page.',
    '',
  ].join('\n');
  const html =
    `<p>Hi ${escapeHtml(p.ownerName)},</p>` +
    `<p>We have reserved a PawGuard collar for ${escapeHtml(p.dogName)}: &ldquo;${escapeHtml(p.deviceName)}&rdquo;, ` +
    `Device ID <strong>${escapeHtml(p.deviceId)}</strong>.</p>` +
    `<p>To set it up:</p><ol>${steps.map((s) => `<li>${escapeHtml(s)}</li>`).join('')}</ol>` +
    '<p>Once the collar sends its first reading, you will see it live on your Devices page.</p>';
  return {
    idempotencyKey: `collar-setup-${p.assignmentKey}`,
    to: headerSafe(p.to),
    subject: headerSafe(`Set up your PawGuard collar ${p.deviceId}`),
    text,
    html,
  };
}
