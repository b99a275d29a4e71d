import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { CircleCheck, Mail, RefreshCw } from 'lucide-react';
import { autoAssignInputSchema, LIMITS, type Device, type Dog } from '@pawguard/shared';
import { PageHeader } from '@/components/page-header';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { formResolver, hasBlankField } from '@/lib/form';
import { useAutoAssignDevice } from '../api/auto-assign-device';
import { usePets } from '@/lib/api/get-pets';
import { ownPets } from '@/lib/pet-rights';
import { SetupSteps } from './setup-steps';

export function RegisterDevicePage() {
  const [assigned, setAssigned] = useState<Device | null>(null);
  return (
    <section aria-labelledby="page-title" className="mx-auto max-w-xl">
      {assigned ? (
        <AssignedScreen device={assigned} />
      ) : (
        <>
          <PageHeader
            title="Register Device"
            description="Choose your pet and name the collar: we reserve one for you and e-mail its set-up steps."
          />
          <AutoAssignForm onAssigned={setAssigned} />
        </>
      )}
    </section>
  );
}

function AutoAssignForm({ onAssigned }: { onAssigned: (device: Device) => void }) {
  const pets = usePets();

  useEffect(() => {
    if (pets.isError) toast.error('Failed to fetch your pets', { id: 'fetch-pets' });
  }, [pets.isError]);

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Auto-assign a collar</CardTitle>
        <CardDescription>
          Already holding a collar? Register it by its Device ID on{' '}
          <Link
            to={paths.devices}
            className="font-medium text-primary underline-offset-4 hover:underline"
          >
            Devices
          </Link>
          .
        </CardDescription>
      </CardHeader>
      <CardContent>
        {pets.isPending ? (
          <div role="status" aria-label="Loading your pets" className="grid gap-3">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
          </div>
        ) : pets.isError ? (
          <div className="flex flex-col items-start gap-3">
            <p className="text-sm text-muted-foreground">We couldn&apos;t load your pets.</p>
            <Button variant="outline" onClick={() => void pets.refetch()}>
              <RefreshCw aria-hidden="true" />
              Try Again
            </Button>
          </div>
        ) : ownPets(pets.data).length === 0 ? (
          <div className="flex flex-col items-start gap-3">
            <p className="text-sm text-muted-foreground">
              A collar is assigned to a pet. Add your dog first.
            </p>
            <Button asChild>
              <Link to={paths.myPets}>Add a Pet</Link>
            </Button>
          </div>
        ) : (
          // Collars go on the person's own pets only: a shared pet's are its owner's to add.
          <AutoAssignFields pets={ownPets(pets.data)} onAssigned={onAssigned} />
        )}
      </CardContent>
    </Card>
  );
}

const resolver = formResolver(autoAssignInputSchema, { required: ['dog_id', 'device_name'] });

function AutoAssignFields({
  pets,
  onAssigned,
}: {
  pets: Dog[];
  onAssigned: (device: Device) => void;
}) {
  const [serverMessage, setServerMessage] = useState<string | null>(null);
  const autoAssign = useAutoAssignDevice();
  const ids = { pet: useId(), name: useId() };
  const { register, handleSubmit } = useForm({
    resolver,
    // One pet: it is the obvious choice.
    defaultValues: { dog_id: pets.length === 1 ? pets[0]!.id : '', device_name: '' },
  });

  const submit = handleSubmit(
    (input) => {
      setServerMessage(null);
      autoAssign.mutate(input, {
        onSuccess: onAssigned,
        onError: (error) => {
          toast.error('Failed to assign device', { description: error.message });
          if (error instanceof ApiError && error.status === 409) setServerMessage(error.message);
        },
      });
    },
    (invalid) => {
      setServerMessage(null);
      if (hasBlankField(invalid)) toast.error('Please fill in all fields');
    },
  );

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Auto-assign a collar">
      <div className="grid gap-2">
        <Label htmlFor={ids.pet}>Pet</Label>
        <NativeSelect id={ids.pet} required {...register('dog_id')}>
          <option value="">Select a pet</option>
          {pets.map((pet) => (
            <option key={pet.id} value={pet.id}>
              {pet.name}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={ids.name}>Device Name</Label>
        <Input
          id={ids.name}
          required
          maxLength={LIMITS.deviceName}
          autoComplete="off"
          placeholder="e.g. Biscuit's collar"
          {...register('device_name')}
        />
      </div>
      {serverMessage ? (
        <Alert variant="warning" role="alert">
          {serverMessage}
        </Alert>
      ) : null}
      <Button
        type="submit"
        disabled={autoAssign.isPending}
        className="w-full sm:w-auto sm:justify-self-start"
      >
        {autoAssign.isPending ? 'Assigning...' : 'Assign Collar'}
      </Button>
    </form>
  );
}

function AssignedScreen({ device }: { device: Device }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-4 p-8 text-center">
        <CircleCheck className="size-12 text-green-600" aria-hidden="true" />
        <h1 id="page-title" className="text-2xl font-bold tracking-tight">
          Collar Assigned!
        </h1>
        {/* Nothing was ordered or shipped: a collar the fleet already holds is now this pet's. */}
        <p className="text-muted-foreground">
          A collar from the PawGuard fleet is now reserved for {device.dog_name ?? 'you'}, as
          &ldquo;{device.device_name}&rdquo;.
        </p>
        <dl className="rounded-lg border bg-muted px-6 py-3">
          <dt className="text-xs uppercase tracking-wide text-muted-foreground">Device ID</dt>
          <dd className="font-mono text-2xl font-bold">{device.device_id}</dd>
        </dl>
        <p className="flex items-center gap-2 font-medium">
          <Mail className="size-4 text-primary" aria-hidden="true" />
          Check your email for setup instructions
        </p>
        <p className="text-sm text-muted-foreground">
          We have e-mailed you the setup steps for this collar. Here they are too:
        </p>
        <div className="w-full rounded-lg bg-amber-50 p-4 text-left text-amber-950">
          <p className="mb-2 text-sm font-semibold">Setting up collar {device.device_id}</p>
          <SetupSteps deviceId={device.device_id} />
        </div>
        <Button asChild>
          <Link to={paths.devices}>View My Devices</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
