import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { usePostgres } from '../helpers/app.js';
import { killHard, startServerProcess } from '../helpers/server-process.js';

/**
 * Durability (RES-1): a reading the server acknowledged is on disk. A real server process,
 * 40 collars posting back to back (about 1,000 readings a second here), kill -9 three times, and after each
 * restart (on the same DATA_DIR, whose lock the kernel released) every acknowledged reading
 * is there. Bounded: three kills of about 1.5 s of load each.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-crash-'));
let child: ChildProcess | null = null;
let base = '';

afterAll(async () => {
  child?.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<void> {
  ({ child, base } = await startServerProcess(dataDir, {
    ADMIN_EMAIL: 'admin@crash.test',
    ADMIN_PASSWORD: 'crash-admin-password',
    RATE_LIMIT_MULTIPLIER: '1000',
  }));
}

async function kill(): Promise<void> {
  const c = child!;
  child = null;
  await killHard(c);
}

/** The few answer fields this test reads. */
interface Answer {
  token: string;
  dog: { id: string };
  devices: { id: string; device_id: string; device_key: string }[];
  vitals: { timestamp: string }[];
}

async function api(
  method: string,
  url: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; body: Answer }> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Answer };
}

describe.skipIf(usePostgres)(
  'kill -9 while collars post (SQLite; PostgreSQL durability is its own)',
  () => {
    it('keeps every acknowledged reading across three crashes, and restarts past the DATA_DIR lock', async () => {
      await start();
      const admin = (
        await api('POST', '/api/auth/login', undefined, {
          email: 'admin@crash.test',
          password: 'crash-admin-password',
        })
      ).body.token as string;
      const owner = (
        await api('POST', '/api/auth/register', undefined, {
          email: 'owner@crash.test',
          password: 'owner-password',
          name: 'Crash Owner',
        })
      ).body.token as string;
      const dog = (await api('POST', '/api/dogs', owner, { name: 'Rex' })).body.dog.id as string;
      const ids = Array.from({ length: 40 }, (_, i) => `PET-C${String(i).padStart(3, '0')}`);
      const stock = (
        await api('POST', '/api/admin/devices/pre-populate', admin, {
          devices: ids.map((device_id, i) => ({
            device_id,
            device_address: `02:00:00:00:00:${i.toString(16).padStart(2, '0')}`,
          })),
        })
      ).body.devices as { id: string; device_id: string; device_key: string }[];
      for (const d of stock)
        await api('POST', `/api/devices/assign/${d.device_id}`, owner, {
          dog_id: dog,
          device_name: d.device_id,
        });

      const acked = new Map<string, Set<number>>(stock.map((d) => [d.id, new Set()]));
      let clock = Date.now() - 3_600_000;
      for (let round = 0; round < 3; round++) {
        let running = true;
        // 40 collars, each posting its next reading as soon as the last was answered.
        const collars = stock.map(async (d) => {
          while (running) {
            const timestamp = clock++;
            try {
              const res = await fetch(`${base}/api/devices/${d.device_id}/vitals`, {
                method: 'POST',
                headers: {
                  authorization: `Device ${d.device_key}`,
                  'content-type': 'application/json',
                },
                body: JSON.stringify({ temperature: 22, humidity: 40, timestamp }),
              });
              if (res.status === 201) acked.get(d.id)!.add(timestamp);
              await res.arrayBuffer();
            } catch {
              // the server died mid-request: not acknowledged
            }
          }
        });
        await new Promise((r) => setTimeout(r, 2_000));
        await kill();
        running = false;
        await Promise.all(collars);
        await start();
      }

      let total = 0;
      for (const d of stock) {
        const res = await api('GET', `/api/devices/${d.id}/vitals?limit=1000`, owner);
        const stored = new Set(
          (res.body.vitals as { timestamp: string }[]).map((v) => Date.parse(v.timestamp)),
        );
        const missing = [...acked.get(d.id)!].filter((ts) => !stored.has(ts));
        expect(missing, `acknowledged readings of ${d.device_id} lost`).toEqual([]);
        total += acked.get(d.id)!.size;
      }
      // The crashes came under load: hundreds of acknowledged readings at the least.
      expect(total).toBeGreaterThan(300);
      await kill();
    }, 90_000);
  },
);
