import { useEffect, useId, useRef, useState } from 'react';
import { useForm, type FieldErrors, type Resolver } from 'react-hook-form';
import { toast } from 'sonner';
import { ArrowLeft } from 'lucide-react';
import { z } from 'zod';
import { LIMITS, loginInputSchema, registerInputSchema } from '@pawguard/shared';
import { LogoMark } from '@/components/logo';
import { Button } from '@/components/ui/button';
import { FieldError } from '@/components/ui/field-error';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useAuth } from '@/lib/auth';
import { errorAria, formResolver, hasBlankField } from '@/lib/form';
import { MAIN_ID } from '@/lib/main-region';

type Mode = 'sign-in' | 'sign-up';
type FormValues = { name: string; email: string; password: string };
type Checked = { name?: string; email: string; password: string };

// The sign-in and sign-up bodies' own rules.
const PASSWORD_TOO_SHORT = `Password must be at least ${LIMITS.passwordMin} characters.`;
const resolvers: Record<Mode, Resolver<FormValues, unknown, Checked>> = {
  // Full Name is hidden in this mode: whatever it holds is not checked.
  'sign-in': formResolver(loginInputSchema.extend({ name: z.string() }), {
    required: ['email', 'password'],
  }),
  'sign-up': formResolver(registerInputSchema, {
    required: ['name', 'email', 'password'],
    wording: { password: { invalid: PASSWORD_TOO_SHORT } },
  }),
};
/** The form's mode reaches the resolver as react-hook-form's context. */
const resolver: Resolver<FormValues, Mode, Checked> = (values, mode, options) =>
  resolvers[mode ?? 'sign-in'](values, undefined, options);

const firstMessage = (errors: FieldErrors<FormValues>) =>
  (['name', 'email', 'password'] as const).map((k) => errors[k]?.message).find(Boolean);

const COPY = {
  'sign-in': {
    title: 'Welcome Back',
    subtitle: 'Sign in to monitor your pets',
    submit: 'Sign In',
    switchPrompt: "Don't have an account?",
    switchLabel: 'Create Account',
  },
  'sign-up': {
    title: 'Create Account',
    subtitle: 'Join us to keep your pets safe',
    submit: 'Create Account',
    switchPrompt: 'Already have an account?',
    switchLabel: 'Sign In',
  },
} as const;

function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

type AuthScreenProps = {
  onBack: () => void;
  onSignedIn: () => void;
  /** The mode it opens in (sign-in unless said). */
  initialMode?: Mode;
  /** An address to start with (an invitation's). */
  initialEmail?: string | undefined;
};

/** Sign in and create account in one card; it has no URL of its own (DESIGN §6). */
export function AuthScreen({
  onBack,
  onSignedIn,
  initialMode = 'sign-in',
  initialEmail = '',
}: AuthScreenProps) {
  const { login, register: signUp, isLoading } = useAuth();
  const [mode, setMode] = useState<Mode>(initialMode);
  const copy = COPY[mode];
  const ids = {
    name: useId(),
    email: useId(),
    password: useId(),
    passwordError: useId(),
    passwordHint: useId(),
  };
  const headingRef = useRef<HTMLHeadingElement>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<FormValues, Mode, Checked>({
    resolver,
    context: mode,
    defaultValues: { name: '', email: initialEmail, password: '' },
  });
  // Said under the field, before the server refuses it; a blank field is said in a toast.
  const passwordError =
    mode === 'sign-up' && errors.password?.type !== 'required'
      ? errors.password?.message
      : undefined;

  useEffect(() => {
    headingRef.current?.focus();
  }, [mode]);

  const onInvalid = (invalid: FieldErrors<FormValues>) => {
    if (hasBlankField(invalid)) {
      toast.error('Error', { description: 'Please fill in all fields' });
      return;
    }
    if (mode === 'sign-up' && invalid.password) return;
    // What the server would answer to these values, said as it would say it.
    toast.error(mode === 'sign-in' ? 'Login Failed' : 'Signup Failed', {
      description: firstMessage(invalid) ?? 'Request failed',
    });
  };

  const onSubmit = handleSubmit(async ({ name, email, password }) => {
    if (mode === 'sign-in') {
      try {
        await login({ email, password });
        onSignedIn();
      } catch (error) {
        toast.error('Login Failed', { description: messageOf(error, 'Invalid email or password') });
      }
      return;
    }
    try {
      await signUp({ name: name ?? '', email, password });
      toast.success('Check your email', { description: "We've sent you a confirmation link" });
      onSignedIn();
    } catch (error) {
      toast.error('Signup Failed', { description: messageOf(error, 'Request failed') });
    }
  }, onInvalid);

  const switchMode = () => {
    setMode((current) => (current === 'sign-in' ? 'sign-up' : 'sign-in'));
    reset(undefined, { keepValues: true });
  };

  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-orange-50 via-amber-50/50 to-background">
      <header className="mx-auto w-full max-w-md px-4 pt-6">
        <Button variant="ghost" size="sm" onClick={onBack}>
          <ArrowLeft aria-hidden="true" />
          Back to home
        </Button>
      </header>
      <main
        id={MAIN_ID}
        className="flex flex-1 items-start justify-center px-4 pb-12 pt-4 sm:items-center"
      >
        <Card className="w-full max-w-md">
          <CardHeader className="items-center text-center">
            <button
              type="button"
              onClick={onBack}
              className="rounded-lg"
              aria-label="PawGuard — back to home"
            >
              <LogoMark className="size-12 [&_svg]:size-7" />
            </button>
            <h1
              ref={headingRef}
              tabIndex={-1}
              className="mt-2 text-2xl font-bold tracking-tight focus:outline-none"
            >
              <button type="button" onClick={onBack} className="rounded-md" title="Back to home">
                {copy.title}
              </button>
            </h1>
            <p className="text-sm text-muted-foreground">{copy.subtitle}</p>
          </CardHeader>
          <CardContent>
            <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label={copy.title}>
              {mode === 'sign-up' ? (
                <div className="grid gap-2">
                  <Label htmlFor={ids.name}>Full Name</Label>
                  <Input
                    id={ids.name}
                    autoComplete="name"
                    required
                    maxLength={LIMITS.name}
                    {...register('name')}
                  />
                </div>
              ) : null}
              <div className="grid gap-2">
                <Label htmlFor={ids.email}>Email</Label>
                <Input
                  id={ids.email}
                  type="email"
                  autoComplete="email"
                  inputMode="email"
                  required
                  maxLength={LIMITS.email}
                  {...register('email')}
                />
              </div>
              <div className="grid gap-2">
                <Label htmlFor={ids.password}>Password</Label>
                <Input
                  id={ids.password}
                  type="password"
                  autoComplete={mode === 'sign-up' ? 'new-password' : 'current-password'}
                  required
                  maxLength={LIMITS.passwordMax}
                  {...errorAria(
                    passwordError,
                    ids.passwordError,
                    mode === 'sign-up' ? ids.passwordHint : undefined,
                  )}
                  {...register('password')}
                />
                {mode === 'sign-up' ? (
                  <FieldError id={ids.passwordError}>{passwordError}</FieldError>
                ) : null}
                {mode === 'sign-up' ? (
                  <p id={ids.passwordHint} className="text-xs text-muted-foreground">
                    At least {LIMITS.passwordMin} characters.
                  </p>
                ) : null}
              </div>
              <Button type="submit" className="mt-2 w-full" disabled={isLoading}>
                {isLoading ? 'Please wait...' : copy.submit}
              </Button>
            </form>
            <p className="mt-6 text-center text-sm text-muted-foreground">
              {copy.switchPrompt}{' '}
              <Button variant="link" className="h-auto p-0" onClick={switchMode}>
                {copy.switchLabel}
              </Button>
            </p>
          </CardContent>
        </Card>
      </main>
    </div>
  );
}
