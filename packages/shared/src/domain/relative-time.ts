/**
 * 'Just now' under 10 s, then 's ago', 'm ago', 'h ago', 'd ago'; 'Never' when absent.
 * A time slightly in the future (clock skew) counts as 'Just now'.
 */
export function formatRelativeTime(
  value: string | number | Date | null | undefined,
  now: number = Date.now(),
): string {
  if (value === null || value === undefined || value === '') return 'Never';
  const at =
    value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (Number.isNaN(at)) return 'Never';
  const seconds = Math.floor((now - at) / 1000);
  if (seconds < 10) return 'Just now';
  if (seconds < 60) return `${seconds}s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  return `${Math.floor(hours / 24)}d ago`;
}
