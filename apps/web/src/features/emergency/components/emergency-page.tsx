import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  ClipboardList,
  Clock,
  CreditCard,
  MapPin,
  Navigation,
  Phone,
  PhoneCall,
  Search,
  ShieldAlert,
  Siren,
  Star,
  Car,
  type LucideIcon,
} from 'lucide-react';
import { EMERGENCY_CLINICS, EMERGENCY_PREP_TIPS, POISON_HELPLINE } from '@pawguard/shared/content';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';

type Clinic = (typeof EMERGENCY_CLINICS)[number];

const TIP_ICONS: Record<(typeof EMERGENCY_PREP_TIPS)[number]['key'], LucideIcon> = {
  'call-ahead': PhoneCall,
  records: ClipboardList,
  'stay-calm': Car,
  payment: CreditCard,
};

/** Spec section 2: a ZIP search over fixed sample clinics, preparation tips, a poison helpline. */
export function EmergencyPage() {
  const [searchedZip, setSearchedZip] = useState<string | null>(null);

  return (
    <section aria-labelledby="page-title">
      <PageHeader
        title="Emergency Vets"
        description="Find an emergency veterinary clinic near you."
      />

      <p className="mb-6 flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
        <Siren className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>
          If your dog shows signs of heat stroke — heavy panting, drooling, weakness or collapse —
          move them to shade, cool them gradually with water, and call your nearest veterinarian
          now.
        </span>
      </p>

      {/* In the DOM in phone order (search, the real helpline, the sample clinics, the tips),
          so tab order and screen readers meet the helpline before the samples; on a wide
          screen the grid puts the search and clinics in two columns and the helpline and tips
          in the third. */}
      <div className="grid gap-6 lg:grid-cols-3 lg:items-start">
        <div className="min-w-0 lg:col-span-2 lg:row-start-1">
          <ZipSearch onSearch={setSearchedZip} />
        </div>
        <div className="min-w-0 lg:col-start-3 lg:row-start-1">
          <PoisonHelplineCard />
        </div>
        {searchedZip !== null ? (
          <div className="min-w-0 lg:col-span-2 lg:row-start-2 lg:row-end-4">
            <Results zip={searchedZip} />
          </div>
        ) : null}
        <div className="min-w-0 lg:col-start-3 lg:row-start-2">
          <PrepTips />
        </div>
      </div>
    </section>
  );
}

// The one form not on react-hook-form and the shared schemas (lib/form.ts): its only rule is
// non-blank after trimming, and it would bring zod and the form code (about 60 kB gzipped)
// to /emergency, which loads neither and is the page an owner in a hurry opens (decision 0033).
function ZipSearch({ onSearch }: { onSearch: (zip: string) => void }) {
  const [zip, setZip] = useState('');
  const inputId = useId();
  const hintId = useId();

  // A form: Enter in the field searches, exactly like the button.
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = zip.trim();
    if (trimmed === '') return;
    onSearch(trimmed);
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Search by ZIP code</CardTitle>
        <CardDescription id={hintId}>
          Enter your ZIP code to see emergency clinics nearby.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form role="search" aria-label="Emergency vets" onSubmit={submit} noValidate>
          <Label htmlFor={inputId}>ZIP code</Label>
          <div className="mt-2 flex flex-col gap-2 sm:flex-row">
            <Input
              id={inputId}
              value={zip}
              onChange={(event) => setZip(event.target.value)}
              inputMode="numeric"
              autoComplete="postal-code"
              placeholder="e.g. 90210"
              maxLength={10}
              aria-describedby={hintId}
              className="sm:max-w-xs"
            />
            <Button type="submit">
              <Search aria-hidden="true" />
              Search
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function Results({ zip }: { zip: string }) {
  const headingRef = useRef<HTMLHeadingElement>(null);

  // Move focus to the new results so keyboard and screen-reader users land on them.
  useEffect(() => {
    headingRef.current?.focus();
  }, [zip]);

  return (
    <section aria-labelledby="vet-results-title">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2
          id="vet-results-title"
          ref={headingRef}
          tabIndex={-1}
          className="break-all text-xl font-semibold tracking-tight focus:outline-none"
        >
          Emergency Vets Near {zip}
        </h2>
        <Badge variant="warning">Sample results</Badge>
      </div>
      <p className="mt-2 text-sm text-muted-foreground">
        These example clinics show how the finder will work; they are not real listings for your
        area. In an emergency, call your own veterinarian or the nearest emergency clinic.
      </p>
      <ul className="mt-4 grid gap-4" aria-label="Clinics">
        {EMERGENCY_CLINICS.map((clinic) => (
          <li key={clinic.id}>
            <ClinicCard clinic={clinic} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function ClinicCard({ clinic }: { clinic: Clinic }) {
  return (
    <Card>
      <CardContent className="grid gap-4 p-5 sm:p-6">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
          <h3 className="text-lg font-semibold leading-tight">{clinic.name}</h3>
          <StarRating rating={clinic.rating} />
        </div>
        <dl className="grid gap-2 text-sm sm:grid-cols-2">
          <Detail icon={MapPin} label="Address" value={clinic.address} />
          <Detail icon={Phone} label="Phone" value={clinic.phone} />
          <Detail icon={Clock} label="Hours" value={clinic.hours} />
          <Detail icon={Navigation} label="Distance" value={clinic.distance} />
        </dl>
        {/* Inert by specification: these are sample clinics (DESIGN §6), and look it. */}
        <div className="grid gap-2">
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button
              variant="secondary"
              disabled
              aria-label={`Call ${clinic.name} (not available for a sample clinic)`}
            >
              <Phone aria-hidden="true" />
              Call
            </Button>
            <Button
              variant="outline"
              disabled
              aria-label={`Get directions to ${clinic.name} (not available for a sample clinic)`}
            >
              <Navigation aria-hidden="true" />
              Get Directions
            </Button>
          </div>
          <p className="text-xs text-muted-foreground">
            Sample clinic: calling and directions are not available.
          </p>
        </div>
      </CardContent>
    </Card>
  );
}

function Detail({ icon: Icon, label, value }: { icon: LucideIcon; label: string; value: string }) {
  return (
    <div className="flex items-start gap-2">
      <dt className="mt-0.5 shrink-0 text-muted-foreground">
        <Icon className="size-4" aria-hidden="true" />
        <span className="sr-only">{label}</span>
      </dt>
      <dd>{value}</dd>
    </div>
  );
}

function StarRating({ rating }: { rating: number }) {
  const filled = Math.round(rating);
  return (
    <p className="flex items-center gap-1.5 text-sm font-medium">
      <span className="flex" aria-hidden="true">
        {Array.from({ length: 5 }, (_, i) => (
          <Star
            key={i}
            className={cn(
              'size-4',
              i < filled ? 'fill-amber-400 text-amber-500' : 'fill-transparent text-slate-300',
            )}
          />
        ))}
      </span>
      <span>
        <span aria-hidden="true">{rating.toFixed(1)}</span>
        <span className="sr-only">Rated {rating.toFixed(1)} out of 5</span>
      </span>
    </p>
  );
}

function PoisonHelplineCard() {
  return (
    <Card className="border-red-200">
      <CardHeader>
        <div className="flex items-center gap-2">
          <ShieldAlert className="size-5 text-red-700" aria-hidden="true" />
          <CardTitle as="h2">Pet Poison Helpline</CardTitle>
        </div>
        <CardDescription>
          Think your dog swallowed something toxic? Call for expert advice.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <div>
          <p className="font-medium">{POISON_HELPLINE.name}</p>
          <Badge variant="success" className="mt-1">
            {POISON_HELPLINE.hours}
          </Badge>
        </div>
        <Button asChild variant="destructive" size="lg" className="w-full">
          <a href={`tel:${POISON_HELPLINE.tel}`}>
            <PhoneCall aria-hidden="true" />
            Call {POISON_HELPLINE.phone}
          </a>
        </Button>
      </CardContent>
    </Card>
  );
}

function PrepTips() {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Before You Go</CardTitle>
        <CardDescription>Four things that make an emergency visit go faster.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-4">
          {EMERGENCY_PREP_TIPS.map((tip) => {
            const Icon = TIP_ICONS[tip.key];
            return (
              <li key={tip.key} className="flex items-start gap-3">
                <span className="inline-flex size-9 shrink-0 items-center justify-center rounded-lg bg-orange-100 text-orange-700">
                  <Icon className="size-4" aria-hidden="true" />
                </span>
                <div>
                  <h3 className="text-sm font-semibold">{tip.title}</h3>
                  <p className="text-sm text-muted-foreground">{tip.description}</p>
                </div>
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}
