import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { LogOut, MailPlus, RefreshCw, UserMinus } from 'lucide-react';
import {
  LIMITS,
  PACK_INVITATION_DAYS,
  PACK_ROLE_LABELS,
  PACK_ROLES,
  packInvitationInputSchema,
  type Dog,
  type Pack,
  type PackInvitation,
  type PackMember,
  type PackRole,
} from '@pawguard/shared';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FieldError } from '@/components/ui/field-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
} from '@/components/ui/sheet';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/lib/auth';
import { useDisplayUnits } from '@/lib/display-units';
import { errorAria, formResolver } from '@/lib/form';
import { petRights } from '@/lib/pet-rights';
import { useNow } from '@/lib/use-now';
import { usePack } from '../api/get-pack';
import { useInviteToPack } from '../api/invite-to-pack';
import { useRemovePackMember } from '../api/remove-pack-member';
import { useWithdrawPackInvitation } from '../api/withdraw-pack-invitation';
import { endOfDay, PACK_ROLE_SUMMARIES, todayIn } from './pack-roles';

type PackSheetProps = {
  /** The pet whose pack is shown; none: closed. */
  pet: Dog | null;
  onOpenChange: (open: boolean) => void;
};

/**
 * A pet's pack (docs/pack.md): its owner and the people it is shared with. Its owner invites,
 * withdraws invitations and removes people; a member sees who else is in it and may leave.
 */
export function PackSheet({ pet, onOpenChange }: PackSheetProps) {
  return (
    <Sheet open={pet !== null} onOpenChange={onOpenChange}>
      <SheetContent>
        {pet ? <PackPanel key={pet.id} pet={pet} onLeft={() => onOpenChange(false)} /> : null}
      </SheetContent>
    </Sheet>
  );
}

function PackPanel({ pet, onLeft }: { pet: Dog; onLeft: () => void }) {
  const { user } = useAuth();
  const pack = usePack(pet.id);
  const share = petRights(pet).share;
  const titleId = useId();
  return (
    <div className="flex flex-1 flex-col gap-6">
      <SheetHeader>
        <SheetTitle className="[overflow-wrap:anywhere]">{pet.name}&apos;s pack</SheetTitle>
        <SheetDescription>
          {share
            ? `Share ${pet.name} with the people who look after them. Everyone in the pack sees ${pet.name} live and gets their alerts.`
            : `The people who share ${pet.name} with ${pet.owner_name ?? 'their owner'}.`}
        </SheetDescription>
      </SheetHeader>

      <section aria-labelledby={titleId} className="grid gap-3">
        <h3 id={titleId} className="text-sm font-semibold">
          People
        </h3>
        {pack.isPending ? (
          <div role="status" aria-label="Loading the pack" className="grid gap-2">
            {[0, 1].map((i) => (
              <Skeleton key={i} className="h-14 w-full" />
            ))}
          </div>
        ) : pack.isError ? (
          <div className="grid justify-items-start gap-2 rounded-lg border p-4 text-sm">
            <p className="font-medium">We couldn&apos;t load {pet.name}&apos;s pack.</p>
            <p className="text-muted-foreground">{pack.error.message}</p>
            <Button variant="outline" size="sm" onClick={() => void pack.refetch()}>
              <RefreshCw aria-hidden="true" />
              Try Again
            </Button>
          </div>
        ) : (
          <PeopleList pack={pack.data} pet={pet} userId={user?.id} canRemove={share} />
        )}
      </section>

      {share && pack.data ? <Invitations pet={pet} invitations={pack.data.invitations} /> : null}
      {share ? <InviteForm pet={pet} /> : null}
      {!share && user ? <LeavePack pet={pet} userId={user.id} onLeft={onLeft} /> : null}
    </div>
  );
}

function PeopleList({
  pack,
  pet,
  userId,
  canRemove,
}: {
  pack: Pack;
  pet: Dog;
  userId: string | undefined;
  canRemove: boolean;
}) {
  const { date } = useDisplayUnits();
  const [removing, setRemoving] = useState<PackMember | null>(null);
  const remove = useRemovePackMember();
  const you = (id: string) => (id === userId ? ' (you)' : '');

  const confirmRemove = () => {
    if (!removing) return;
    const who = removing;
    remove.mutate(
      { dogId: pet.id, userId: who.user_id, leaving: false },
      {
        onSuccess: () => {
          toast.success(`${who.name} removed from ${pet.name}'s pack`);
          setRemoving(null);
        },
        onError: (error) => {
          toast.error(`Failed to remove ${who.name}`, { description: error.message });
          setRemoving(null);
        },
      },
    );
  };

  return (
    <>
      <ul aria-label={`People in ${pet.name}'s pack`} className="grid gap-2">
        <li className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border p-3">
          <div className="min-w-0 flex-1">
            <p className="font-medium [overflow-wrap:anywhere]">
              {pack.owner.name}
              {you(pack.owner.user_id)}
            </p>
          </div>
          <Badge variant="default">{PACK_ROLE_LABELS.owner}</Badge>
        </li>
        {pack.members.map((member) => (
          <li
            key={member.user_id}
            className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border p-3"
          >
            <div className="min-w-0 flex-1">
              <p className="font-medium [overflow-wrap:anywhere]">
                {member.name}
                {you(member.user_id)}
              </p>
              {member.email ? (
                <p className="text-xs text-muted-foreground [overflow-wrap:anywhere]">
                  {member.email}
                </p>
              ) : null}
              <p className="mt-1 flex flex-wrap items-center gap-1.5 text-xs">
                <Badge variant="secondary">{PACK_ROLE_LABELS[member.role]}</Badge>
                {member.active ? (
                  member.until ? (
                    <span className="text-muted-foreground">until {date(member.until)}</span>
                  ) : null
                ) : (
                  <Badge variant="muted" title={member.until ? `Ended ${date(member.until)}` : ''}>
                    Ended
                  </Badge>
                )}
              </p>
            </div>
            {canRemove ? (
              <Button
                variant="outline"
                size="sm"
                onClick={() => setRemoving(member)}
                aria-label={`Remove ${member.name} from ${pet.name}'s pack`}
                className="text-destructive hover:text-destructive"
              >
                <UserMinus aria-hidden="true" />
                Remove
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      {pack.members.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          Only you so far. Invite someone below to share {pet.name} with them.
        </p>
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        title={`Remove ${removing?.name} from ${pet.name}'s pack?`}
        description={`${removing?.name} will no longer see ${pet.name} or get their alerts. You can invite them again later.`}
        onConfirm={confirmRemove}
        pending={remove.isPending}
        confirmLabel="Remove"
        pendingLabel="Removing..."
      />
    </>
  );
}

function Invitations({ pet, invitations }: { pet: Dog; invitations: PackInvitation[] }) {
  const { date } = useDisplayUnits();
  const withdraw = useWithdrawPackInvitation();
  const titleId = useId();
  if (invitations.length === 0) return null;
  const onWithdraw = (invitation: PackInvitation) =>
    withdraw.mutate(
      { dogId: pet.id, invitationId: invitation.id },
      {
        onSuccess: () =>
          toast.success('Invitation withdrawn', {
            description: `The link sent to ${invitation.email} no longer works.`,
          }),
        onError: (error) =>
          toast.error('Failed to withdraw the invitation', { description: error.message }),
      },
    );
  return (
    <section aria-labelledby={titleId} className="grid gap-3">
      <h3 id={titleId} className="text-sm font-semibold">
        Invitations waiting for an answer
      </h3>
      <ul className="grid gap-2">
        {invitations.map((invitation) => (
          <li
            key={invitation.id}
            className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-dashed p-3"
          >
            <div className="min-w-0 flex-1">
              <p className="font-medium [overflow-wrap:anywhere]">{invitation.email}</p>
              <p className="text-xs text-muted-foreground">
                {PACK_ROLE_LABELS[invitation.role]}
                {invitation.until ? ` until ${date(invitation.until)}` : ''} · link works until{' '}
                {date(invitation.expires_at)}
              </p>
            </div>
            <Button
              variant="outline"
              size="sm"
              disabled={withdraw.isPending && withdraw.variables.invitationId === invitation.id}
              onClick={() => onWithdraw(invitation)}
              aria-label={`Withdraw the invitation to ${invitation.email}`}
            >
              Withdraw
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** How far ahead a sharing may end: a sitter's week, a season; longer goes without a date. */
const UNTIL_MAX_DAYS = 365;

const inviteSchema = z.object({
  email: packInvitationInputSchema.shape.email,
  role: packInvitationInputSchema.shape.role,
  until: z.string(),
});
type InviteValues = z.input<typeof inviteSchema>;

const inviteResolver = formResolver(inviteSchema, {
  required: ['email'],
  wording: {
    email: {
      required: 'Enter the e-mail address of the person to invite.',
      invalid: 'Enter a valid e-mail address, like name@example.com.',
    },
  },
});

function InviteForm({ pet }: { pet: Dog }) {
  const invite = useInviteToPack();
  const { timeZone } = useDisplayUnits();
  // Today moves on at midnight while the sheet is open.
  const now = useNow(60_000);
  const today = todayIn(timeZone, now);
  const latest = todayIn(timeZone, now + UNTIL_MAX_DAYS * DAY_MS);
  const ids = {
    title: useId(),
    email: useId(),
    emailError: useId(),
    until: useId(),
    untilError: useId(),
    untilHint: useId(),
    role: useId(),
  };
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<InviteValues, unknown, z.output<typeof inviteSchema>>({
    resolver: inviteResolver,
    defaultValues: { email: '', role: 'caregiver', until: '' },
  });
  const emailError = errors.email?.message;
  const untilError = errors.until?.message;

  const submit = handleSubmit(({ email, role, until }) => {
    if (until !== '' && until < today) {
      setError('until', { message: 'Pick today or a later date.' }, { shouldFocus: true });
      return;
    }
    if (until !== '' && until > latest) {
      setError(
        'until',
        { message: 'Pick a date within a year, or leave it empty to share until you remove them.' },
        { shouldFocus: true },
      );
      return;
    }
    invite.mutate(
      {
        dogId: pet.id,
        data: { email, role, until: until === '' ? null : endOfDay(until, timeZone) },
      },
      {
        onSuccess: () => {
          toast.success('Invitation sent', {
            description: `We e-mailed ${email} a link to join ${pet.name}'s pack. It works once, for ${PACK_INVITATION_DAYS} days.`,
          });
          reset({ email: '', role, until: '' });
        },
        onError: (error) =>
          toast.error('Failed to send the invitation', { description: error.message }),
      },
    );
  });

  return (
    <section aria-labelledby={ids.title} className="grid gap-3 border-t pt-5">
      <h3 id={ids.title} className="text-sm font-semibold">
        Invite someone
      </h3>
      <form noValidate onSubmit={submit} className="grid gap-4" aria-labelledby={ids.title}>
        <div className="grid gap-2">
          <Label htmlFor={ids.email}>Email</Label>
          <Input
            id={ids.email}
            type="email"
            inputMode="email"
            autoComplete="off"
            required
            maxLength={LIMITS.email}
            placeholder="name@example.com"
            {...errorAria(emailError, ids.emailError)}
            {...register('email')}
          />
          <FieldError id={ids.emailError}>{emailError}</FieldError>
        </div>
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm font-medium">Role</legend>
          {PACK_ROLES.map((role: PackRole) => (
            <label
              key={role}
              className="flex cursor-pointer gap-3 rounded-lg border p-3 has-[:checked]:border-primary has-[:checked]:bg-orange-50/60 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
            >
              <input
                type="radio"
                value={role}
                aria-labelledby={`${ids.role}-${role}-name`}
                aria-describedby={`${ids.role}-${role}`}
                className="mt-0.5 size-4 shrink-0 accent-primary focus-visible:outline-none"
                {...register('role')}
              />
              <span className="grid gap-0.5 text-sm">
                <span id={`${ids.role}-${role}-name`} className="font-medium">
                  {PACK_ROLE_LABELS[role]}
                </span>
                <span id={`${ids.role}-${role}`} className="text-muted-foreground">
                  {PACK_ROLE_SUMMARIES[role]}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
        <div className="grid gap-2">
          <Label htmlFor={ids.until}>Until (optional)</Label>
          <Input
            id={ids.until}
            type="date"
            min={today}
            max={latest}
            className="w-full sm:w-48"
            {...errorAria(untilError, ids.untilError, ids.untilHint)}
            {...register('until')}
          />
          <FieldError id={ids.untilError}>{untilError}</FieldError>
          <p id={ids.untilHint} className="text-xs text-muted-foreground">
            For a sitter: they see {pet.name} until the end of that day. Empty: until you remove
            them.
          </p>
        </div>
        <Button type="submit" disabled={invite.isPending} className="justify-self-start">
          <MailPlus aria-hidden="true" />
          {invite.isPending ? 'Sending...' : 'Send Invitation'}
        </Button>
      </form>
    </section>
  );
}

function LeavePack({ pet, userId, onLeft }: { pet: Dog; userId: string; onLeft: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const leave = useRemovePackMember();
  const confirm = () =>
    leave.mutate(
      { dogId: pet.id, userId, leaving: true },
      {
        onSuccess: () => {
          toast.success(`You left ${pet.name}'s pack`, {
            description: `${pet.name} is no longer on your lists.`,
          });
          setConfirming(false);
          onLeft();
        },
        onError: (error) => {
          toast.error(`Failed to leave ${pet.name}'s pack`, { description: error.message });
          setConfirming(false);
        },
      },
    );
  return (
    <div className="mt-auto grid gap-2 border-t pt-5">
      <p className="text-sm text-muted-foreground">
        Leaving stops {pet.name}&apos;s alerts for you; only {pet.owner_name ?? 'their owner'} can
        invite you again.
      </p>
      <Button
        variant="outline"
        className="justify-self-start text-destructive hover:text-destructive"
        onClick={() => setConfirming(true)}
      >
        <LogOut aria-hidden="true" />
        Leave {pet.name}&apos;s pack
      </Button>
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title={`Leave ${pet.name}'s pack?`}
        description={`You will no longer see ${pet.name} or get their alerts.`}
        onConfirm={confirm}
        pending={leave.isPending}
        confirmLabel="Leave"
        pendingLabel="Leaving..."
      />
    </div>
  );
}
