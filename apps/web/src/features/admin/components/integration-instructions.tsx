import { useState, type ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { usePublicConfig } from '@/lib/api/public-config';

/** A reading as firmware sends it, taken now: a copied example is stored, not refused as old. */
const exampleReading = (now: Date) => ({
  temperature: 31.5,
  humidity: 55,
  heart_rate: 96,
  activity_level: 40,
  battery: 82,
  status: 'SAFE',
  timestamp: new Date(Math.floor(now.getTime() / 1000) * 1000).toISOString(),
  location: { lat: 40.7128, lon: -74.006 },
});

const EXAMPLE_SELF_REGISTER = { firmware_version: '1.0.0', device_address: 'AA:BB:CC:DD:EE:FF' };

function Code({ children, label }: { children: ReactNode; label: string }) {
  return (
    <pre
      tabIndex={0}
      aria-label={label}
      className="overflow-x-auto rounded-lg bg-slate-900 p-4 text-xs leading-relaxed text-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <code>{children}</code>
    </pre>
  );
}

/** What a firmware author needs to make a collar talk to PawGuard (DESIGN §3 "Reading fields"). */
export function IntegrationInstructions() {
  const origin = window.location.origin;
  const [example] = useState(() => JSON.stringify(exampleReading(new Date()), null, 2));
  // Over MQTT too, when the server listens for collars there (MQTT_PORT).
  const mqttPort = usePublicConfig().data?.mqtt_port ?? null;
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle as="h2">Integration Instructions</CardTitle>
        <CardDescription>
          How collar firmware sends readings. Every call authenticates with the device key shown
          once at pre-populate time.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid min-w-0 gap-5 text-sm">
        <section className="grid min-w-0 gap-2">
          <h3 className="font-semibold">1. Report the collar once it is online</h3>
          <p>
            <code className="font-mono break-all">POST {origin}/api/devices/self-register</code>{' '}
            with the firmware version and the collar&apos;s MAC address:
          </p>
          <Code label="Self-register request">
            {`POST ${origin}/api/devices/self-register
Authorization: Device <key>
Content-Type: application/json

${JSON.stringify(EXAMPLE_SELF_REGISTER, null, 2)}`}
          </Code>
        </section>
        <section className="grid min-w-0 gap-2">
          <h3 className="font-semibold">2. Send readings</h3>
          <p>
            <code className="font-mono break-all">
              POST {origin}/api/devices/{'{Device ID}'}/vitals
            </code>{' '}
            — the path takes the Device ID printed on the collar (e.g. PET-AB12), never its internal
            id. The key decides which device writes; a path naming another device is refused (403).
          </p>
          <Code label="Reading request">
            {`POST ${origin}/api/devices/PET-AB12/vitals
Authorization: Device <key>
Content-Type: application/json

${example}`}
          </Code>
        </section>
        {mqttPort === null ? null : (
          <section className="grid min-w-0 gap-2">
            <h3 className="font-semibold">Or send readings over MQTT</h3>
            <p>
              Connect to <code className="font-mono break-all">{window.location.hostname}</code> on
              port <code className="font-mono">{mqttPort}</code> with the Device ID as username and
              as client id (or the start of it, e.g. PET-AB12-1), and the device key as password.
              Publish the same JSON with QoS 1 to{' '}
              <code className="font-mono break-all">pawguard/devices/{'{Device ID}'}/vitals</code>,
              exactly: the Device ID in capitals as printed (PET-AB12), without the retain flag.
              Another topic or a retained message closes the connection. The PUBACK comes once the
              reading is stored. A message the server cannot take is acknowledged and dropped (the
              server logs why), so test new firmware over HTTP first.
            </p>
            <Code label="MQTT example">
              {`mosquitto_pub -h ${window.location.hostname} -p ${mqttPort} \\
  -i PET-AB12 -u PET-AB12 -P '<key>' -q 1 \\
  -t pawguard/devices/PET-AB12/vitals \\
  -m '{"temperature": 31.5, "humidity": 55}'`}
            </Code>
          </section>
        )}
        <section className="grid min-w-0 gap-2">
          <h3 className="font-semibold">Reading fields</h3>
          <ul className="grid list-disc gap-1 pl-5">
            <li>
              <code className="font-mono">temperature</code> (required): °C measured next to the
              dog, −40 to 60.
            </li>
            <li>
              <code className="font-mono">humidity</code> (required): air humidity in %, 0 to 100.
            </li>
            <li>
              <code className="font-mono">heart_rate</code>: whole beats per minute, 20 to 300.
            </li>
            <li>
              <code className="font-mono">activity_level</code>: whole %, 0 to 100.
            </li>
            <li>
              <code className="font-mono">battery</code>: whole %, 0 to 100.
            </li>
            <li>
              <code className="font-mono">status</code>: the collar&apos;s own assessment (e.g.
              SAFE); the server computes its own status from the owner&apos;s thresholds.
            </li>
            <li>
              <code className="font-mono">timestamp</code>: ISO-8601 UTC or epoch milliseconds;
              defaults to now; more than 5 minutes in the future or older than the server takes (7
              days unless its <code className="font-mono">READINGS_MAX_AGE_DAYS</code> says more) is
              refused (400).
            </li>
            <li>
              <code className="font-mono">location</code>: optional{' '}
              <code className="font-mono">{'{ lat, lon }'}</code>.
            </li>
          </ul>
          <p className="text-muted-foreground">
            Repeating a reading with the same timestamp is safe: it is acknowledged and stored once.
            Errors answer a 4xx status with <code className="font-mono">{'{ "error": "…" }'}</code>.
          </p>
        </section>
      </CardContent>
    </Card>
  );
}
