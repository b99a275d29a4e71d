import { useEffect, useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Info, Mail, Send, Thermometer } from 'lucide-react';
import {
  DEFAULT_PREFERENCES,
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
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { api, ApiError } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { getPreferences, getPreferencesQueryOptions } from '../api/get-preferences';

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
type ThresholdErrors = Partial<Record<Threshold, string>>;

const THRESHOLD_NAMES: Record<Threshold, string> = {
  temperature_threshold: 'warning temperature',
  critical_temperature_threshold: 'critical temperature',
};

/**
 * What is wrong with a threshold as typed, in words: the input's own bounds (min 70, max 120)
 * and that it is a number, which the server checks too. Whether critical exceeds warning is
 * not checked (spec section 5).
 */
function thresholdError(field: Threshold, value: string): string | undefined {
  const text = value.trim();
  const n = Number(text);
  if (text === '' || !Number.isFinite(n))
    return `Enter the ${THRESHOLD_NAMES[field]} as a number of °F, such as ${DEFAULT_PREFERENCES[field]}.`;
  if (n < THRESHOLD_MIN_F || n > THRESHOLD_MAX_F) return rangeMessage(field);
  return undefined;
}

const rangeMessage = (field: Threshold) =>
  `The ${THRESHOLD_NAMES[field]} must be between ${THRESHOLD_MIN_F} and ${THRESHOLD_MAX_F} °F.`;

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
  const [form, setForm] = useState<Form>(toForm(DEFAULT_PREFERENCES));
  const [saving, setSaving] = useState(false);
  const [sending, setSending] = useState(false);
  const [errors, setErrors] = useState<ThresholdErrors>({});
  const ids = {
    enabled: useId(),
    frequency: useId(),
    frequencyHint: useId(),
    warning: useId(),
    critical: useId(),
  };
  const inputIds: Record<Threshold, string> = {
    temperature_threshold: ids.warning,
    critical_temperature_threshold: ids.critical,
  };

  useEffect(() => {
    const controller = new AbortController();
    getPreferences(controller.signal)
      .then((p) => {
        setForm(toForm(p));
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
  }, [attempt]);

  const update = <K extends keyof Form>(key: K, value: Form[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  // A message goes once the value it was about has changed.
  const updateThreshold = (key: Threshold, value: string) => {
    update(key, value);
    setErrors((e) => (e[key] ? { ...e, [key]: undefined } : e));
  };

  /** Shows the messages under their fields, the first one's field focused, and the toast. */
  const refuse = (found: ThresholdErrors) => {
    setErrors(found);
    const first = (Object.keys(inputIds) as Threshold[]).find((k) => found[k]);
    if (first) document.getElementById(inputIds[first])?.focus();
    toast.error('Error', { description: 'Failed to save notification preferences' });
  };

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (loadFailed) return;
    const found: ThresholdErrors = {};
    for (const key of Object.keys(inputIds) as Threshold[]) {
      const error = thresholdError(key, form[key]);
      if (error) found[key] = error;
    }
    if (Object.keys(found).length > 0) {
      refuse(found);
      return;
    }
    setErrors({});
    setSaving(true);
    const body = {
      email_notifications_enabled: form.email_notifications_enabled,
      email_frequency: form.email_frequency,
      temperature_threshold: parseFloat(form.temperature_threshold),
      critical_temperature_threshold: parseFloat(form.critical_temperature_threshold),
    };
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
      if (field) refuse({ [field]: thresholdError(field, form[field]) ?? rangeMessage(field) });
      else toast.error('Error', { description: 'Failed to save notification preferences' });
    } finally {
      setSaving(false);
    }
  };

  const sendTest = async () => {
    setSending(true);
    try {
      const data = await api.post(
        '/notifications/test-email',
        { petName: TEST_EMAIL_DEFAULTS.petName, temperature: TEST_EMAIL_DEFAULTS.temperature },
        testEmailResponseSchema,
      );
      if (data.success) toast.success('Test Email Sent', { description: data.message });
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

  const emailsOn = form.email_notifications_enabled;
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
              <button
                id={ids.enabled}
                type="button"
                role="switch"
                aria-checked={emailsOn}
                onClick={() => update('email_notifications_enabled', !emailsOn)}
                className={cn(
                  'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2',
                  emailsOn ? 'bg-orange-600' : 'bg-slate-300',
                )}
              >
                <span
                  aria-hidden="true"
                  className={cn(
                    'inline-block size-5 rounded-full bg-white shadow transition-transform',
                    emailsOn ? 'translate-x-5' : 'translate-x-0.5',
                  )}
                />
              </button>
            </div>
            <div className="grid gap-2">
              <Label htmlFor={ids.frequency}>Email frequency</Label>
              <NativeSelect
                id={ids.frequency}
                value={form.email_frequency}
                disabled={!emailsOn}
                aria-describedby={ids.frequencyHint}
                onChange={(e) => update('email_frequency', e.target.value as Frequency)}
              >
                {(Object.keys(FREQUENCY_LABELS) as Frequency[]).map((f) => (
                  <option key={f} value={f}>
                    {FREQUENCY_LABELS[f]}
                  </option>
                ))}
              </NativeSelect>
              <p id={ids.frequencyHint} className="text-sm text-muted-foreground">
                {FREQUENCY_HINTS[form.email_frequency]}
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
                value={form.temperature_threshold}
                error={errors.temperature_threshold}
                onChange={(v) => updateThreshold('temperature_threshold', v)}
              />
              <ThresholdInput
                id={ids.critical}
                label="Critical temperature (°F)"
                value={form.critical_temperature_threshold}
                error={errors.critical_temperature_threshold}
                onChange={(v) => updateThreshold('critical_temperature_threshold', v)}
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
    </section>
  );
}

/** A threshold in °F: the spec's bounds (70–120, step 0.1) exist only as input attributes. */
function ThresholdInput({
  id,
  label,
  value,
  error,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const errorId = `${id}-error`;
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="number"
        inputMode="decimal"
        min={THRESHOLD_MIN_F}
        max={THRESHOLD_MAX_F}
        step={0.1}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}
