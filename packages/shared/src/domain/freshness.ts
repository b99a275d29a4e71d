/** A reading is fresh (Connected, pet badge) while younger than 2 minutes. */
export const FRESH_MS = 120_000;
/** An admin sees a device Online when last_seen is within 5 minutes. */
export const ONLINE_MS = 300_000;
/** The offline alert opens after 10 minutes of silence. */
export const OFFLINE_ALERT_MS = 600_000;

const toMs = (v: string | number | Date) =>
  v instanceof Date ? v.getTime() : typeof v === 'number' ? v : Date.parse(v);

export function isFresh(
  timestamp: string | number | Date | null | undefined,
  now = Date.now(),
): boolean {
  if (timestamp === null || timestamp === undefined) return false;
  const at = toMs(timestamp);
  return !Number.isNaN(at) && now - at < FRESH_MS;
}

export function isOnline(
  lastSeen: string | number | Date | null | undefined,
  now = Date.now(),
): boolean {
  if (lastSeen === null || lastSeen === undefined) return false;
  const at = toMs(lastSeen);
  return !Number.isNaN(at) && now - at <= ONLINE_MS;
}
