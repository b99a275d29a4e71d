import { Link } from 'react-router';
import {
  Activity,
  ArrowRight,
  BellRing,
  Dog,
  HeartPulse,
  LayoutDashboard,
  ShieldCheck,
  Sparkles,
  Target,
  Thermometer,
  Droplets,
  type LucideIcon,
} from 'lucide-react';
import { BRAND, FEATURES } from '@pawguard/shared/content';
import { PublicHeader } from '@/components/public-header';
import { SkipLink } from '@/components/skip-link';
import { buttonVariants } from '@/components/ui/button-variants';
import { paths } from '@/config/paths';
import { MAIN_ID } from '@/lib/main-region';

const FEATURE_ICONS: Record<(typeof FEATURES)[number]['key'], LucideIcon> = {
  activity: Activity,
  'heart-rate': HeartPulse,
  alerts: BellRing,
  ai: Sparkles,
  dashboard: LayoutDashboard,
  goals: Target,
};

type LandingPageProps = {
  onLogin: () => void;
  onLoginIntent?: () => void;
  onJoinWaitlist: () => void;
};

export function LandingPage({ onLogin, onLoginIntent, onJoinWaitlist }: LandingPageProps) {
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <PublicHeader onLogin={onLogin} onLoginIntent={onLoginIntent}>
        <nav aria-label="Page sections" className="hidden sm:block">
          <a
            href="#features"
            className="rounded-md px-2 py-1 text-sm font-medium text-muted-foreground hover:text-foreground"
          >
            Features
          </a>
        </nav>
      </PublicHeader>

      <main id={MAIN_ID} className="flex-1">
        <section
          aria-labelledby="hero-title"
          className="bg-gradient-to-b from-orange-50 via-amber-50/60 to-background"
        >
          <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-16 sm:px-6 md:grid-cols-2 md:py-24">
            <div>
              <p className="inline-flex items-center gap-2 rounded-full border border-orange-200 bg-card px-3 py-1 text-sm font-medium text-orange-800">
                <ShieldCheck className="size-4" aria-hidden="true" />
                AI pet protection
              </p>
              <h1
                id="hero-title"
                className="mt-5 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl"
              >
                Keep your dog safe from the heat with {BRAND.name}
              </h1>
              <p className="mt-5 max-w-xl text-lg text-muted-foreground">
                A smart collar watches the temperature and humidity around your dog, and{' '}
                {BRAND.name} alerts you the moment it turns dangerous — before heat stroke can set
                in.
              </p>
              <div className="mt-8 flex flex-col gap-3 sm:flex-row">
                <button
                  type="button"
                  className={buttonVariants({ size: 'lg' })}
                  onClick={onJoinWaitlist}
                >
                  Join Waitlist
                  <ArrowRight aria-hidden="true" />
                </button>
                <a href="#features" className={buttonVariants({ size: 'lg', variant: 'outline' })}>
                  Explore features
                </a>
              </div>
            </div>
            <ExampleReading />
          </div>
        </section>

        <section
          id="features"
          aria-labelledby="features-title"
          className="scroll-mt-20 py-16 md:py-24"
        >
          <div className="mx-auto max-w-6xl px-4 sm:px-6">
            <div className="mx-auto max-w-2xl text-center">
              <h2 id="features-title" className="text-3xl font-bold tracking-tight">
                Everything your dog needs to stay cool
              </h2>
              <p className="mt-3 text-muted-foreground">{BRAND.tagline}.</p>
            </div>
            <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {FEATURES.map((feature) => {
                const Icon = FEATURE_ICONS[feature.key];
                return (
                  <li key={feature.key} className="rounded-xl border bg-card p-6 shadow-sm">
                    <span className="inline-flex size-11 items-center justify-center rounded-lg bg-orange-100 text-orange-700">
                      <Icon className="size-5" aria-hidden="true" />
                    </span>
                    <h3 className="mt-4 text-lg font-semibold">{feature.title}</h3>
                    <p className="mt-2 text-sm text-muted-foreground">{feature.description}</p>
                  </li>
                );
              })}
            </ul>
          </div>
        </section>

        <section aria-labelledby="cta-title" className="px-4 pb-16 sm:px-6 md:pb-24">
          <div className="mx-auto max-w-4xl rounded-2xl bg-slate-900 px-6 py-12 text-center text-white shadow-lg sm:px-12">
            <h2 id="cta-title" className="text-3xl font-bold tracking-tight">
              Be first when {BRAND.name} launches
            </h2>
            <p className="mx-auto mt-3 max-w-xl text-slate-300">
              Join the waitlist and we will let you know as soon as collars are ready for your pup.
            </p>
            <button
              type="button"
              className={buttonVariants({ size: 'lg', className: 'mt-8' })}
              onClick={onJoinWaitlist}
            >
              Join Waitlist
            </button>
          </div>
        </section>
      </main>

      <footer className="border-t bg-card">
        <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-8 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between sm:px-6">
          {/* Prerendered at build time: the year may have turned since. */}
          <p suppressHydrationWarning>
            © {new Date().getFullYear()} {BRAND.name}. AI pet protection for hot days.
          </p>
          <nav aria-label="Footer">
            <Link to={paths.emergency} className="font-medium text-foreground hover:text-primary">
              Emergency Vets
            </Link>
          </nav>
        </div>
      </footer>
    </div>
  );
}

/** An illustration of what an owner sees, clearly marked as an example. */
function ExampleReading() {
  return (
    <figure
      className="mx-auto w-full max-w-sm rounded-2xl border bg-card p-6 shadow-lg"
      aria-label="Example collar reading"
    >
      <div className="flex items-center justify-between">
        <div className="flex items-center gap-3">
          <span className="inline-flex size-11 items-center justify-center rounded-full bg-orange-100 text-orange-700">
            <Dog className="size-6" aria-hidden="true" />
          </span>
          <div>
            <p className="font-semibold">Your dog</p>
            <p className="text-xs text-muted-foreground">Smart collar · Just now</p>
          </div>
        </div>
        <span className="rounded-full border border-green-200 bg-green-50 px-2.5 py-0.5 text-xs font-semibold text-green-800">
          Safe
        </span>
      </div>
      <dl className="mt-6 grid grid-cols-2 gap-4">
        <div className="rounded-lg bg-orange-50 p-4">
          <dt className="flex items-center gap-1 text-xs font-medium text-orange-800">
            <Thermometer className="size-3.5" aria-hidden="true" />
            Temperature
          </dt>
          <dd className="mt-1 text-2xl font-bold">24.5°C</dd>
          <dd className="text-xs text-muted-foreground">76.1°F</dd>
        </div>
        <div className="rounded-lg bg-sky-50 p-4">
          <dt className="flex items-center gap-1 text-xs font-medium text-sky-800">
            <Droplets className="size-3.5" aria-hidden="true" />
            Humidity
          </dt>
          <dd className="mt-1 text-2xl font-bold">48%</dd>
          <dd className="text-xs text-muted-foreground">Comfortable</dd>
        </div>
      </dl>
      <figcaption className="mt-4 text-center text-xs text-muted-foreground">
        Example reading
      </figcaption>
    </figure>
  );
}
