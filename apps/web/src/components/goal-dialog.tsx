import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { GOAL_MINUTES_MAX, GOAL_MINUTES_MIN, type Goal } from '@pawguard/shared';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { FieldError } from '@/components/ui/field-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useUpdateGoal } from '@/lib/api/update-goal';

export const GOAL_RANGE_MESSAGE = `Enter a whole number of minutes from ${GOAL_MINUTES_MIN} to ${GOAL_MINUTES_MAX}`;

/** The minutes typed, or why they cannot be a goal. */
export function parseGoalMinutes(text: string): { minutes: number } | { error: string } {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return { error: GOAL_RANGE_MESSAGE };
  const minutes = Number(trimmed);
  if (minutes < GOAL_MINUTES_MIN || minutes > GOAL_MINUTES_MAX)
    return { error: GOAL_RANGE_MESSAGE };
  return { minutes };
}

/**
 * A dog's daily activity goal: what PawGuard suggests and why, the owner's own number (5–300
 * minutes), or back to the suggestion (sent as null, so it follows the dog's profile).
 */
export function GoalDialog({
  dogId,
  dogName,
  goal,
  open,
  onOpenChange,
}: {
  dogId: string;
  dogName: string;
  goal: Goal;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        {/* Mounted while open, so each opening starts from the goal in force. */}
        {open ? (
          <GoalForm
            dogId={dogId}
            dogName={dogName}
            goal={goal}
            onDone={() => onOpenChange(false)}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function GoalForm({
  dogId,
  dogName,
  goal,
  onDone,
}: {
  dogId: string;
  dogName: string;
  goal: Goal;
  onDone: () => void;
}) {
  const ids = { input: useId(), hint: useId(), error: useId(), reasons: useId() };
  const [text, setText] = useState(String(goal.active_minutes));
  const [error, setError] = useState<string | undefined>();
  const update = useUpdateGoal(dogId);

  const send = (minutes: number | null) => {
    setError(undefined);
    update.mutate(minutes, {
      onSuccess: (saved) => {
        toast.success('Goal saved', {
          description:
            minutes === null
              ? `${dogName}'s goal follows the suggestion: ${saved.active_minutes} min a day`
              : `${dogName}'s goal: ${saved.active_minutes} min a day`,
        });
        onDone();
      },
      // The API's own words (its `error`): they say what was wrong.
      onError: (e) => setError(e.message),
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseGoalMinutes(text);
    if ('error' in parsed) {
      setError(parsed.error);
      return;
    }
    send(parsed.minutes);
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Daily activity goal</DialogTitle>
        <DialogDescription>
          Minutes of activity a day for {dogName}. Minutes while {dogName} is above Safe never count
          toward it.
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-2 rounded-lg border bg-muted/40 p-3 text-sm">
        <p className="font-medium" id={ids.reasons}>
          PawGuard suggests {goal.suggested_minutes} min a day
          {goal.source === 'suggested' ? ' (the goal now)' : ''}
        </p>
        {goal.reasons.length > 0 ? (
          <ul className="grid list-disc gap-1 pl-5 text-muted-foreground">
            {goal.reasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        ) : null}
      </div>
      <div className="grid gap-2">
        <Label htmlFor={ids.input}>Minutes a day</Label>
        <Input
          id={ids.input}
          type="number"
          inputMode="numeric"
          min={GOAL_MINUTES_MIN}
          max={GOAL_MINUTES_MAX}
          step={1}
          required
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${ids.hint} ${ids.error}` : ids.hint}
          className="max-w-40"
        />
        <p id={ids.hint} className="text-sm text-muted-foreground">
          From {GOAL_MINUTES_MIN} to {GOAL_MINUTES_MAX} minutes.
        </p>
        <FieldError id={ids.error}>{error}</FieldError>
      </div>
      <DialogFooter className="sm:justify-between">
        <Button
          variant="outline"
          disabled={update.isPending}
          onClick={() => send(null)}
          aria-describedby={ids.reasons}
        >
          Use the suggestion
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save goal'}
        </Button>
      </DialogFooter>
    </form>
  );
}
