// The heat-risk model's share of a reading's cost on the ingest hot path: riskStep for one
// reading (a collar with a full 16-minute window and 15 days of history), and the JSON round
// trip of the collar's risk state that each commit does once per collar. In process, no server:
// the figure to hold against the server CPU per durable reading that `ingest` prints.
import { performance } from 'node:perf_hooks';
import { parseRiskState, riskStep, emptyRiskState } from '@pawguard/shared';
import { fmt } from './lib.mjs';

const profile = {
  name: 'Coco',
  breed: 'French Bulldog cross',
  age: 7,
  weightLbs: 26,
  conditions: ['airway'],
};

/** A collar that has lived 15 days and the last hour: every window and history full. */
function warmState() {
  let state = emptyRiskState();
  const start = Date.UTC(2026, 6, 1);
  for (let d = 0; d < 15; d++)
    for (let s = 0; s < 3600; s += 30)
      state = riskStep(
        state,
        {
          at: start + d * 86_400_000 + s * 1000,
          temperature: 25 + (s % 600) / 100,
          humidity: 55,
          activity_level: 40,
          heart_rate: 120,
        },
        profile,
      ).state;
  return state;
}

export async function run() {
  let state = warmState();
  const n = 200_000;
  const t0 = performance.now();
  let at = state.at;
  for (let i = 0; i < n; i++) {
    at += 5000;
    state = riskStep(
      state,
      {
        at,
        temperature: 28 + (i % 120) / 40,
        humidity: 60,
        activity_level: i % 90,
        heart_rate: 100 + (i % 60),
      },
      profile,
    ).state;
  }
  const stepUs = ((performance.now() - t0) * 1000) / n;
  const json = JSON.stringify(state);
  const m = 50_000;
  const t1 = performance.now();
  for (let i = 0; i < m; i++) JSON.stringify(parseRiskState(json));
  const roundTripUs = ((performance.now() - t1) * 1000) / m;
  console.log(
    `heat risk   riskStep ${fmt(stepUs, 2)} µs per reading (${n} readings, full windows); ` +
      `state ${json.length} bytes, JSON round trip ${fmt(roundTripUs, 2)} µs per collar and commit`,
  );
}
