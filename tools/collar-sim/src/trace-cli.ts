// `npm run sim:trace -- --dog frenchie --week warm --seed 3`: writes a week-long collar trace (or
// a dangerous episode) as CSV or JSON lines, for charts, the alert benchmark and unit tests.
import fs from 'node:fs';
import { generateEpisode } from './episodes.js';
import type { TraceMinute } from './life.js';
import { UsageError } from './options.js';
import { TRACE_USAGE, parseTraceOptions, type TraceOptions } from './trace-options.js';
import { DOG_PROFILES, generateWeek } from './week.js';

const CSV_HEAD = 'timestamp,temperature,humidity,heart_rate,activity_level,battery';
const TRUTH_HEAD = ',behaviour,place,collar,air_c,outdoor_c';

/** The trace's lines: a header and a line per reading (per minute with --truth). */
export function traceLines(minutes: readonly TraceMinute[], o: TraceOptions): string[] {
  const lines: string[] = [];
  if (o.format === 'csv') lines.push(CSV_HEAD + (o.truth ? TRUTH_HEAD : ''));
  for (const m of minutes) {
    if (!m.reading && !o.truth) continue;
    const r = m.reading;
    const truth = {
      behaviour: m.behaviour,
      place: m.place,
      collar: m.collar,
      air_c: m.airC,
      outdoor_c: m.outdoorC,
    };
    if (o.format === 'jsonl') {
      const reading = r && { ...r, timestamp: new Date(r.timestamp).toISOString() };
      lines.push(
        JSON.stringify(o.truth ? { at: new Date(m.at).toISOString(), reading, ...truth } : reading),
      );
      continue;
    }
    const cells = r
      ? [
          new Date(r.timestamp).toISOString(),
          r.temperature,
          r.humidity,
          r.heart_rate ?? '',
          r.activity_level ?? '',
          r.battery,
        ]
      : [new Date(m.at).toISOString(), '', '', '', '', ''];
    if (o.truth) cells.push(...Object.values(truth));
    lines.push(cells.join(','));
  }
  return lines;
}

function main() {
  let options;
  try {
    options = parseTraceOptions(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`${err.message}\n\n${TRACE_USAGE}`);
    process.exit(2);
  }
  if (options === 'help') {
    console.log(TRACE_USAGE);
    return;
  }
  const minutes =
    options.what === 'episode'
      ? generateEpisode(options.episode, options.seed).minutes
      : generateWeek({
          profile: DOG_PROFILES[options.dog],
          kind: options.week,
          seed: options.seed,
          days: options.days,
        }).minutes;
  const text = traceLines(minutes, options).join('\n') + '\n';
  if (options.out) fs.writeFileSync(options.out, text);
  else process.stdout.write(text);
}

main();
