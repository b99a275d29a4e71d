import { useState } from 'react';
import { Link } from 'react-router';
import { MonitorSmartphone } from 'lucide-react';
import type { PrePopulatedDevice } from '@pawguard/shared';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { DeviceKeyNotice } from './device-key-notice';
import { FleetList } from './fleet-list';
import { IntegrationInstructions } from './integration-instructions';
import { PrePopulateForm } from './pre-populate-form';
import { UndeliveredMailCard } from './undelivered-mail-card';

type IssuedKey = { device: PrePopulatedDevice; rotated: boolean };

export function AdminPortalPage() {
  // Every key issued on this page stays on screen until its own "stored" button: a second
  // pre-populate or rotation never replaces the only copy of an earlier key. Held only in
  // memory: a key is never fetched again.
  const [issued, setIssued] = useState<IssuedKey[]>([]);
  const add = (rotated: boolean) => (device: PrePopulatedDevice) =>
    setIssued((keys) => [{ device, rotated }, ...keys]);
  const dismiss = (key: string) =>
    setIssued((keys) => keys.filter((k) => k.device.device_key !== key));
  return (
    <section aria-labelledby="page-title">
      <PageHeader
        title="Admin Portal"
        description="Pre-populate collars with their hardware addresses and review the fleet."
        actions={
          <Button variant="outline" asChild>
            <Link to={paths.adminDevices}>
              <MonitorSmartphone aria-hidden="true" />
              All Devices
            </Link>
          </Button>
        }
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <div className="grid min-w-0 content-start gap-6">
          <Card>
            <CardHeader>
              <CardTitle as="h2">Pre-populate Device</CardTitle>
              <CardDescription>
                Add a collar before it ships, so a customer can register it by its Device ID.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <PrePopulateForm onCreated={add(false)} />
            </CardContent>
          </Card>
          {issued.map(({ device, rotated }) => (
            <DeviceKeyNotice
              key={device.device_key}
              device={device}
              rotated={rotated}
              onDismiss={() => dismiss(device.device_key)}
            />
          ))}
        </div>
        <FleetList onKeyRotated={add(true)} />
      </div>
      <div className="mt-6">
        <UndeliveredMailCard />
      </div>
      <div className="mt-6">
        <IntegrationInstructions />
      </div>
    </section>
  );
}
