import { useId, type ReactNode } from 'react';
import { useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { LIMITS, MESSAGES, waitlistInputSchema } from '@pawguard/shared';
import { PET_BREEDS, WAITLIST_TOASTS } from '@pawguard/shared/content';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { ApiError } from '@/lib/api-client';
import { formResolver } from '@/lib/form';
import { useJoinWaitlist } from '../api/join-waitlist';

type WaitlistDialogProps = { open: boolean; onOpenChange: (open: boolean) => void };

/**
 * Loaded on first open (see app/routes/landing.tsx), so it may use toasts and the query
 * client the landing page itself keeps out of its bundle.
 */
export function WaitlistDialog({ open, onOpenChange }: WaitlistDialogProps) {
  // Opened from the landing page's buttons, not a Radix trigger: DialogContent gives focus back
  // to the button that opened it (components/ui/return-focus.ts).
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Join the Waitlist</DialogTitle>
          <DialogDescription>
            Be the first to know when PawGuard collars are ready. All fields are required.
          </DialogDescription>
        </DialogHeader>
        {/* Inside the content, so closing the dialog always starts the next visit afresh. */}
        <WaitlistForm onJoined={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

// The server's own rules for every field (the breed select starts at '', 'Select a breed'),
// each problem named inline next to its field instead of coming back as a toast.
const resolver = formResolver(
  waitlistInputSchema.extend({ petBreed: z.string().pipe(waitlistInputSchema.shape.petBreed) }),
  {
    required: ['name', 'email', 'phone', 'petName', 'petBreed'],
    wording: {
      name: { required: 'Please enter your name.' },
      email: {
        required: 'Please enter your email address.',
        invalid: 'Please enter a valid email address.',
      },
      phone: {
        required: 'Please enter your phone number.',
        invalid: 'Please enter a valid phone number: digits, spaces and + ( ) . - only.',
      },
      petName: { required: "Please enter your pet's name." },
      petBreed: { required: "Please choose your pet's breed." },
    },
  },
);

const EMPTY = { name: '', email: '', phone: '', petName: '', petBreed: '' };

/** The server's own words when it gave any; otherwise the spec's fallback. */
function failureMessage(error: unknown): string {
  if (
    error instanceof ApiError &&
    error.status > 0 &&
    error.message !== MESSAGES.requestFailed &&
    error.message !== ''
  )
    return error.message;
  return WAITLIST_TOASTS.failure;
}

function WaitlistForm({ onJoined }: { onJoined: () => void }) {
  const joinWaitlist = useJoinWaitlist();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm({ resolver, defaultValues: EMPTY, mode: 'onSubmit', reValidateMode: 'onChange' });

  const onSubmit = handleSubmit(async (input) => {
    try {
      await joinWaitlist.mutateAsync(input);
    } catch (error) {
      toast.error(failureMessage(error), { duration: WAITLIST_TOASTS.durationMs });
      return;
    }
    toast.success(WAITLIST_TOASTS.successTitle, {
      description: WAITLIST_TOASTS.successDescription,
      duration: WAITLIST_TOASTS.durationMs,
    });
    reset(EMPTY);
    onJoined();
  });

  const pending = joinWaitlist.isPending;

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Join the Waitlist" className="grid gap-4">
      <Field
        label="Name"
        error={errors.name?.message}
        input={(props) => <Input autoComplete="name" required maxLength={LIMITS.name} {...props} />}
        registration={register('name')}
      />
      <Field
        label="Email"
        error={errors.email?.message}
        input={(props) => (
          <Input
            type="email"
            inputMode="email"
            autoComplete="email"
            required
            maxLength={LIMITS.email}
            {...props}
          />
        )}
        registration={register('email')}
      />
      <Field
        label="Phone"
        error={errors.phone?.message}
        input={(props) => (
          <Input type="tel" autoComplete="tel" required maxLength={LIMITS.phone} {...props} />
        )}
        registration={register('phone')}
      />
      <Field
        label="Pet Name"
        error={errors.petName?.message}
        input={(props) => <Input required maxLength={LIMITS.name} {...props} />}
        registration={register('petName')}
      />
      <Field
        label="Pet Breed"
        error={errors.petBreed?.message}
        input={(props) => (
          <NativeSelect required {...props}>
            <option value="" disabled>
              Select a breed
            </option>
            {PET_BREEDS.map((breed) => (
              <option key={breed} value={breed}>
                {breed}
              </option>
            ))}
          </NativeSelect>
        )}
        registration={register('petBreed')}
      />
      <DialogFooter className="mt-2">
        <Button type="submit" disabled={pending} className="w-full sm:w-auto">
          {pending ? 'Joining...' : 'Join Waitlist'}
        </Button>
      </DialogFooter>
    </form>
  );
}

type ControlProps = UseFormRegisterReturn & {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
};

type FieldProps = {
  label: string;
  error: string | undefined;
  registration: UseFormRegisterReturn;
  input: (props: ControlProps) => ReactNode;
};

/** A label, its control and the inline message that names what is missing. */
function Field({ label, error, registration, input }: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {input({
        ...registration,
        id,
        'aria-invalid': Boolean(error),
        'aria-describedby': error ? errorId : undefined,
      })}
      {error ? (
        <p id={errorId} className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
