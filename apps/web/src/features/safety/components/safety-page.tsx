import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import {
  AlertTriangle,
  Car,
  CloudSun,
  Droplets,
  Footprints,
  Siren,
  Stethoscope,
  Thermometer,
  TreePalm,
  type LucideIcon,
} from 'lucide-react';
import {
  HEAT_STROKE_STEPS,
  SAFETY_TIPS,
  SAMPLE_WEATHER_CHECK,
  WEATHER_LEVELS,
  type SafetySeverity,
  type WeatherLevel,
} from '@pawguard/shared/content';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';

const TIP_ICONS: Record<(typeof SAFETY_TIPS)[number]['key'], LucideIcon> = {
  water: Droplets,
  shade: TreePalm,
  paws: Footprints,
  cars: Car,
};

const SEVERITY: Record<SafetySeverity, { label: string; className: string }> = {
  critical: { label: 'Critical', className: 'border-red-200 bg-red-50 text-red-800' },
  high: { label: 'High', className: 'border-orange-200 bg-orange-50 text-orange-800' },
  medium: { label: 'Medium', className: 'border-amber-200 bg-amber-50 text-amber-900' },
};

/** Colours for the Weather Guide's levels; the label always says the level in words too. */
const LEVEL_STYLE: Record<WeatherLevel, { swatch: string; badge: string }> = {
  perfect: { swatch: 'bg-green-500', badge: 'border-green-200 bg-green-50 text-green-800' },
  good: { swatch: 'bg-lime-500', badge: 'border-lime-200 bg-lime-50 text-lime-900' },
  caution: { swatch: 'bg-amber-400', badge: 'border-amber-200 bg-amber-50 text-amber-900' },
  hot: { swatch: 'bg-orange-500', badge: 'border-orange-200 bg-orange-50 text-orange-800' },
  danger: { swatch: 'bg-red-600', badge: 'border-red-200 bg-red-50 text-red-800' },
};

export function SafetyPage() {
  return (
    <section aria-labelledby="page-title">
      <PageHeader
        title="Pet Safety Guide"
        description="How to keep your dog safe in the heat, and what to do in an emergency."
      />
      <Tabs defaultValue="general">
        <TabsList aria-label="Safety guide sections">
          <TabsTrigger value="general">General Tips</TabsTrigger>
          <TabsTrigger value="emergency">Emergency</TabsTrigger>
          <TabsTrigger value="weather">Weather Guide</TabsTrigger>
        </TabsList>
        <TabsContent value="general">
          <GeneralTips />
        </TabsContent>
        <TabsContent value="emergency">
          <EmergencyProtocol />
        </TabsContent>
        <TabsContent value="weather">
          <WeatherGuide />
        </TabsContent>
      </Tabs>
    </section>
  );
}

function GeneralTips() {
  return (
    <>
      <h2 className="sr-only">General Tips</h2>
      <ul className="grid gap-4 sm:grid-cols-2">
        {SAFETY_TIPS.map((tip) => {
          const Icon = TIP_ICONS[tip.key];
          const severity = SEVERITY[tip.severity];
          return (
            <li key={tip.key}>
              <Card className="h-full">
                <CardContent className="flex h-full flex-col gap-3 p-5 sm:p-6">
                  <div className="flex items-start justify-between gap-3">
                    <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-orange-100 text-orange-700">
                      <Icon className="size-5" aria-hidden="true" />
                    </span>
                    <Badge variant="outline" className={severity.className}>
                      <span className="sr-only">Severity: </span>
                      {severity.label}
                    </Badge>
                  </div>
                  <h3 className="font-semibold">{tip.title}</h3>
                  <p className="text-sm text-muted-foreground">{tip.description}</p>
                </CardContent>
              </Card>
            </li>
          );
        })}
      </ul>
      <CollarTemperatureNote />
    </>
  );
}

/**
 * Said once, here: the collar's "Body temperature (collar)" is not the dog's core
 * temperature, so it is not read against the normal 100-102.5°F (a vet's rectal reading).
 */
function CollarTemperatureNote() {
  return (
    <section
      aria-labelledby="collar-temperature-title"
      className="mt-6 rounded-xl border bg-card p-5 text-sm sm:p-6"
    >
      <h2 id="collar-temperature-title" className="text-base font-semibold">
        What &quot;Body temperature (collar)&quot; measures
      </h2>
      <p className="mt-2 text-muted-foreground">
        The collar measures the temperature at the collar: the air between the collar and the coat,
        warmed by your dog and by the day. It is not your dog&apos;s core temperature, so it is not
        comparable with the normal pet temperature of 100-102.5°F, which a vet takes rectally: a
        collar reading well below it does not mean your dog is cold. PawGuard judges the collar's
        reading with your thresholds and the heat around your dog.
      </p>
    </section>
  );
}

function EmergencyProtocol() {
  return (
    <Card>
      <CardHeader>
        <div className="flex items-center gap-2">
          <Siren className="size-5 text-red-700" aria-hidden="true" />
          <CardTitle as="h2">Heat Stroke Emergency Protocol</CardTitle>
        </div>
        <CardDescription>Act fast: follow these four steps in order.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <ol className="grid gap-4">
          {HEAT_STROKE_STEPS.map((step, index) => (
            <li key={step.key} className="flex items-start gap-4">
              <span
                className="inline-flex size-8 shrink-0 items-center justify-center rounded-full bg-red-700 text-sm font-bold text-white"
                aria-hidden="true"
              >
                {index + 1}
              </span>
              <div>
                <h3 className="font-semibold">
                  <span className="sr-only">Step {index + 1}: </span>
                  {step.title}
                </h3>
                <p className="text-sm text-muted-foreground">{step.description}</p>
              </div>
            </li>
          ))}
        </ol>
        <div className="flex flex-col gap-3 rounded-lg border border-red-200 bg-red-50 p-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="flex items-start gap-2 text-sm text-red-900">
            <Stethoscope className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            Need a vet right now? Find an emergency clinic near you.
          </p>
          <Button asChild variant="destructive">
            <Link to={paths.emergency}>Find Emergency Vets</Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function WeatherGuide() {
  const [checked, setChecked] = useState(false);

  const check = () => {
    setChecked(true);
    toast.success(SAMPLE_WEATHER_CHECK.toastTitle, {
      description: `Sample result: ${SAMPLE_WEATHER_CHECK.temperature}, ${SAMPLE_WEATHER_CHECK.label}.`,
      duration: SAMPLE_WEATHER_CHECK.toastDurationMs,
    });
  };

  return (
    <div className="grid gap-6 lg:grid-cols-5">
      <Card className="lg:col-span-3">
        <CardHeader>
          <div className="flex items-center gap-2">
            <Thermometer className="size-5 text-primary" aria-hidden="true" />
            <CardTitle as="h2">Temperature Safety Levels</CardTitle>
          </div>
          <CardDescription>Outdoor temperature and what it means for your dog.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <div>
            <h3 className="text-sm font-semibold">Legend</h3>
            <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-2 text-sm">
              {WEATHER_LEVELS.map((level) => (
                <li key={level.key} className="flex items-center gap-1.5">
                  <span
                    className={cn('size-3 rounded-full', LEVEL_STYLE[level.key].swatch)}
                    aria-hidden="true"
                  />
                  {level.label}
                </li>
              ))}
            </ul>
          </div>
          <div className="rounded-lg border">
            <Table scrollLabel="Temperature safety levels">
              <TableHeader>
                <TableRow className="hover:bg-transparent">
                  <TableHead>Temperature</TableHead>
                  <TableHead>Safety Level</TableHead>
                  <TableHead className="hidden sm:table-cell">What to do</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {WEATHER_LEVELS.map((level) => (
                  <TableRow key={level.key}>
                    <TableCell className="whitespace-nowrap font-medium">{level.range}</TableCell>
                    <TableCell>
                      <Badge variant="outline" className={LEVEL_STYLE[level.key].badge}>
                        <span
                          className={cn('size-2 rounded-full', LEVEL_STYLE[level.key].swatch)}
                          aria-hidden="true"
                        />
                        {level.label}
                      </Badge>
                    </TableCell>
                    <TableCell className="hidden text-muted-foreground sm:table-cell">
                      {level.guidance}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        </CardContent>
      </Card>

      <Card className="lg:col-span-2">
        <CardHeader>
          <div className="flex items-center gap-2">
            <CloudSun className="size-5 text-primary" aria-hidden="true" />
            <CardTitle as="h2">Weather Check</CardTitle>
          </div>
          <CardDescription>
            See what today&apos;s temperature means for your dog. Live local weather is not
            connected yet, so the check shows a sample result.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <Button onClick={check} className="w-full whitespace-normal">
            Check Current Weather Safety Level
          </Button>
          <div aria-live="polite">
            {checked ? (
              <div className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-amber-900">
                <div className="flex items-center justify-between gap-2">
                  <h3 className="text-sm font-semibold">Current conditions</h3>
                  <Badge variant="outline" className="border-amber-300 bg-card text-amber-900">
                    Sample result
                  </Badge>
                </div>
                <p className="mt-3 flex items-baseline gap-3">
                  <span className="text-3xl font-bold tabular-nums">
                    {SAMPLE_WEATHER_CHECK.temperature}
                  </span>
                  <span className="flex items-center gap-1 font-semibold">
                    <AlertTriangle className="size-4" aria-hidden="true" />
                    {SAMPLE_WEATHER_CHECK.label}
                  </span>
                </p>
                <p className="mt-2 text-sm">{SAMPLE_WEATHER_CHECK.advice}</p>
              </div>
            ) : null}
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
