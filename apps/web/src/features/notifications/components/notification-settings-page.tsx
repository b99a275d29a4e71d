import { useEffect, useId, useState } from 'react';
import {
  useForm,
  useWatch,
  type FieldError as FormFieldError,
  type UseFormRegisterReturn,
} from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Info, Mail, Send, Thermometer } from 'lucide-react';
import { z } from 'zod';
import {
  DEFAULT_PREFERENCES,
  fahrenheitToCelsius,
  formatCelsius,
  preferencesInputSchema,
  TEST_EMAIL_DEFAULTS,
  testEmailResponseSchema,
  THRESHOLD_MAX_F,
  THRESHOLD_MIN_F,
  type Preferences,
} from '@pawguard/shared';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FieldError } from '@/components/ui/field-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { api, ApiError } from '@/lib/api-client';
import { errorAria, formResolver } from '@/lib/form';
import { getPreferences, getPreferencesQueryOptions } from '../api/get-preferences';
import { EscalationCard } from './escalation-card';
import { PushNotificationsCard } from './push-notifications-card';
import { UnitsAndTimeCard } from './units-and-time-card';

type Frequency = Preferences['email_frequency'];

/** Spec section 2: what each frequency means, under the selector. */
const FREQUENCY_HINTS: Record<Frequency, string> = {
  immediate: 'Get alerts as soon as they occur',
  hourly: 'Receive a summary of alerts every hour',
  daily: 'Receive a daily summary of all alerts',
};
const FREQUENCY_LABELS: Record<Frequency, string> = {
  immediate: 'Immediate',
  hourly: 'Hourly',
  daily: 'Daily',
};

/** The form keeps what is typed; numbers are parsed as decimals only on Save. */
type Form = {
  email_notifications_enabled: boolean;
  email_frequency: Frequency;
  temperature_threshold: string;
  critical_temperature_threshold: string;
};

type Threshold = 'temperature_threshold' | 'critical_temperature_threshold';

const THRESHOLD_NAMES: Record<Threshold, string> = {
  temperature_threshold: 'warning temperature',
  critical_temperature_threshold: 'critical temperature',
};

const rangeMessage = (field: Threshold) =>
  `The ${THRESHOLD_NAMES[field]} must be between ${THRESHOLD_MIN_F} and ${THRESHOLD_MAX_F} °F.`;

/** A threshold as typed, read as a decimal: blank reaches the schema as missing. */
const thresholdText = (field: Threshold) =>
  z
    .string()
    .trim()
    .transform((v) => (v === '' ? undefined : Number(v)))
    .pipe(preferencesInputSchema.shape[field]);

/**
 * What is wrong with a threshold as typed, in words: the input's own bounds (min 70, max 120)
 * and that it is a number, which the server checks too (preferencesInputSchema). Whether
 * critical exceeds warning is not checked (spec section 5).
 */
const thresholdWording = (field: Threshold) => {
  const notANumber = `Enter the ${THRESHOLD_NAMES[field]} as a number of °F, such as ${DEFAULT_PREFERENCES[field]}.`;
  return {
    required: notANumber,
    invalid: ({ type }: FormFieldError) =>
      type === 'too_small' || type === 'too_big' ? rangeMessage(field) : notANumber,
  };
};

const resolver = formResolver(
  preferencesInputSchema.extend({
    temperature_threshold: thresholdText('temperature_threshold'),
    critical_temperature_threshold: thresholdText('critical_temperature_threshold'),
  }),
  {
    required: ['temperature_threshold', 'critical_temperature_threshold'],
    wording: {
      temperature_threshold: thresholdWording('temperature_threshold'),
      critical_temperature_threshold: thresholdWording('critical_temperature_threshold'),
    },
  },
);

/** The field a refused save names ("critical_temperature_threshold must be …"), if any. */
function fieldOfServerError(message: string): Threshold | null {
  if (message.startsWith('critical_temperature_threshold')) return 'critical_temperature_threshold';
  if (message.startsWith('temperature_threshold')) return 'temperature_threshold';
  return null;
}

const toForm = (p: Preferences): Form => ({
  email_notifications_enabled: p.email_notifications_enabled,
  email_frequency: p.email_frequency,
  temperature_threshold: String(p.temperature_threshold),
  critical_temperature_threshold: String(p.critical_temperature_threshold),
});

/**
 * Notification settings (spec sections 2 and 8): e-mail on or off, how often, a test
 * e-mail, and the two temperature thresholds. Edits stay in the form until Save; saving and
 * sending a test are separate busy states.
 */
export function NotificationSettingsPage() {
  const queryClient = useQueryClient();
  const [loading, setLoading] = useState(true);
  // Until the saved settings have loaded, Save would put the defaults over them unseen.
  const [loadFailed, setLoadFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [saving, setSaving] = useState(false);
  const [sending, setSending] = useState(false);
  const ids = {
    enabled: useId(),
    frequency: useId(),
    frequencyHint: useId(),
    warning: useId(),
    critical: useId(),
  };
  const {
    register,
    handleSubmit,
    reset,
    setValue,
    setError,
    control,
    formState: { errors },
  } = useForm({ resolver, defaultValues: toForm(DEFAULT_PREFERENCES) });
  const emailsOn = useWatch({ control, name: 'email_notifications_enabled' });
  const frequency = useWatch({ control, name: 'email_frequency' });
  const warningTyped = useWatch({ control, name: 'temperature_threshold' });
  const criticalTyped = useWatch({ control, name: 'critical_temperature_threshold' });

  useEffect(() => {
    const controller = new AbortController();
    getPreferences(controller.signal)
      .then((p) => {
        reset(toForm(p));
        setLoadFailed(false);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Failed to load notification preferences', error);
        toast.error('Error', { description: 'Failed to load notification preferences' });
        setLoadFailed(true);
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [attempt, reset]);

  const failed = () =>
    toast.error('Error', { description: 'Failed to save notification preferences' });

  // A refused threshold is said under its field, the first one focused, with the toast.
  const save = handleSubmit(async (body) => {
    if (loadFailed) return;
    setSaving(true);
    try {
      await api.put('/notifications/preferences', body);
      // The header's Enabled/Disabled badge reads the same cache entry.
      await queryClient.invalidateQueries({ queryKey: getPreferencesQueryOptions().queryKey });
      toast.success('Success', { description: 'Notification preferences updated successfully' });
    } catch (error) {
      console.error('Failed to save notification preferences', error);
      const field =
        error instanceof ApiError && error.status === 400
          ? fieldOfServerError(error.message)
          : null;
      // Should the server refuse what passed here, its field still gets words under it.
      if (field)
        setError(field, { type: 'server', message: rangeMessage(field) }, { shouldFocus: true });
      failed();
    } finally {
      setSaving(false);
    }
  }, failed);

  const sendTest = async () => {
    setSending(true);
    try {
      const data = await api.post(
        '/notifications/test-email',
        { petName: TEST_EMAIL_DEFAULTS.petName, temperature: TEST_EMAIL_DEFAULTS.temperature },
        testEmailResponseSchema,
      );
      // The spec's title either way; a mail the server could not hand to a mail service (it has
      // none set up) is a warning, so the owner does not wait for it.
      if (data.success && data.delivered === false)
        toast.warning('Test Email Sent', { description: data.message });
      else if (data.success) toast.success('Test Email Sent', { description: data.message });
      else toast.error('Test Failed', { description: data.message });
    } catch (error) {
      // An answer without data ({ error }) shows its text; a call that failed outright, the
      // generic words.
      const text = error instanceof ApiError && error.status > 0 ? error.message : null;
      toast.error('Error', { description: text ?? 'Failed to send test email' });
    } finally {
      setSending(false);
    }
  };

  if (loading) {
    return (
      <section aria-labelledby="page-title">
        <PageHeader title="Notification Settings" />
        <p role="status" className="flex items-center gap-2 text-muted-foreground">
          <Spinner /> Loading notification settings...
        </p>
      </section>
    );
  }

  return (
    <section aria-labelledby="page-title">
      <PageHeader
        title="Notification Settings"
        description="Choose when PawGuard e-mails you and the temperatures that trigger an alert."
      />
      <form onSubmit={save} className="grid max-w-3xl gap-6" noValidate>
        {/* First, so nobody takes the defaults below for their own settings. */}
        {loadFailed && (
          <div
            role="alert"
            className="flex flex-wrap items-center gap-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
          >
            <span>
              Your saved settings could not be loaded, so they cannot be saved over: the values
              below are the defaults, not yours. Try again in a moment.
            </span>
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => setAttempt((n) => n + 1)}
            >
              Try Again
            </Button>
          </div>
        )}
        <Card>
          <CardHeader>
            <CardTitle as="h2" className="flex items-center gap-2">
              <Mail className="size-5 text-orange-600" aria-hidden="true" />
              Email Notifications
            </CardTitle>
            <CardDescription>
              Alerts about your dogs, sent to your account's e-mail.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-5">
            <div className="flex items-center justify-between gap-4">
              <Label htmlFor={ids.enabled} className="text-base">
                Email alerts
              </Label>
              <Switch
                id={ids.enabled}
                checked={emailsOn}
                onCheckedChange={(on) => setValue('email_notifications_enabled', on)}
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor={ids.frequency}>Email frequency</Label>
              <NativeSelect
                id={ids.frequency}
                disabled={!emailsOn}
                aria-describedby={ids.frequencyHint}
                {...register('email_frequency')}
              >
                {(Object.keys(FREQUENCY_LABELS) as Frequency[]).map((f) => (
                  <option key={f} value={f}>
                    {FREQUENCY_LABELS[f]}
                  </option>
                ))}
              </NativeSelect>
              <p id={ids.frequencyHint} className="text-sm text-muted-foreground">
                {FREQUENCY_HINTS[frequency]}
              </p>
            </div>
            <div>
              <Button
                type="button"
                variant="outline"
                onClick={() => void sendTest()}
                disabled={!emailsOn || sending}
              >
                <Send aria-hidden="true" />
                {sending ? 'Sending...' : 'Send Test Email'}
              </Button>
            </div>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle as="h2" className="flex items-center gap-2">
              <Thermometer className="size-5 text-orange-600" aria-hidden="true" />
              Temperature Alerts
            </CardTitle>
            <CardDescription>
              PawGuard alerts you when your dog's collar reads at or above these temperatures.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-5">
            <div className="grid gap-4 sm:grid-cols-2">
              <ThresholdInput
                id={ids.warning}
                label="Warning temperature (°F)"
                typed={warningTyped}
                error={errors.temperature_threshold?.message}
                registration={register('temperature_threshold')}
              />
              <ThresholdInput
                id={ids.critical}
                label="Critical temperature (°F)"
                typed={criticalTyped}
                error={errors.critical_temperature_threshold?.message}
                registration={register('critical_temperature_threshold')}
              />
            </div>
            <div
              role="note"
              aria-label="Temperature guidelines"
              className="rounded-lg border border-sky-200 bg-sky-50 p-4 text-sm text-sky-950"
            >
              <p className="mb-2 flex items-center gap-2 font-semibold">
                <Info className="size-4" aria-hidden="true" />
                Temperature guidelines
              </p>
              <ul className="grid list-disc gap-1 pl-5">
                <li>Normal pet temperature: 100-102.5°F</li>
                <li>Warning threshold: 85-95°F (environmental heat)</li>
                <li>Critical threshold: 105°F+ (immediate danger)</li>
                <li>Consider your pet's breed, age and health</li>
              </ul>
            </div>
          </CardContent>
        </Card>

        <div>
          <Button type="submit" disabled={saving || loadFailed}>
            {saving ? 'Saving...' : 'Save Settings'}
          </Button>
        </div>
      </form>
      {/* Each saved on its own: not part of the spec's notification preferences. */}
      <PushNotificationsCard className="mt-6 max-w-3xl" />
      <EscalationCard className="mt-6 max-w-3xl" />
      <UnitsAndTimeCard className="mt-6 max-w-3xl" />
    </section>
  );
}

/** What a threshold typed in °F is in °C ('29.4°C'), or null while it is not a number. */
function celsiusOfTyped(typed: string): string | null {
  const f = typed.trim() === '' ? NaN : Number(typed);
  return Number.isFinite(f) ? formatCelsius(fahrenheitToCelsius(f)) : null;
}

/**
 * A threshold in °F: the spec's bounds (70–120, step 0.1) exist only as input attributes.
 * Its °C equivalent sits beside it and follows the typing (DESIGN §3 "Display").
 */
function ThresholdInput({
  id,
  label,
  typed,
  error,
  registration,
}: {
  id: string;
  label: string;
  typed: string;
  error: string | undefined;
  registration: UseFormRegisterReturn;
}) {
  const errorId = `${id}-error`;
  const celsiusId = `${id}-celsius`;
  const celsius = celsiusOfTyped(typed);
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex items-center gap-3">
        <Input
          id={id}
          type="number"
          inputMode="decimal"
          min={THRESHOLD_MIN_F}
          max={THRESHOLD_MAX_F}
          step={0.1}
          className="min-w-0 flex-1"
          {...errorAria(error, errorId, celsiusId)}
          {...registration}
        />
        <span
          id={celsiusId}
          className="w-20 shrink-0 text-sm tabular-nums text-muted-foreground"
          data-testid={`${registration.name}-celsius`}
        >
          {celsius === null ? '' : `= ${celsius}`}
        </span>
      </div>
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}
