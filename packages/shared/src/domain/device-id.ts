const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A Device ID as printed on a collar: 'PET-' + 4 uppercase alphanumerics. */
export const DEVICE_ID_PATTERN = /^PET-[A-Z0-9]{4}$/;

/** Device IDs are case-insensitive and stored upper case. Returns null when malformed. */
export function normalizeDeviceId(input: string): string | null {
  const id = input.trim().toUpperCase();
  return DEVICE_ID_PATTERN.test(id) ? id : null;
}

/** `random` must return integers in [0, n); the server passes crypto.randomInt. */
export function generateDeviceId(random: (n: number) => number): string {
  let suffix = '';
  for (let i = 0; i < 4; i++) suffix += ALPHABET[random(ALPHABET.length)];
  return `PET-${suffix}`;
}

/**
 * MAC addresses are accepted in any case, with ':' or '-' or no separators, and stored
 * as AA:BB:CC:DD:EE:FF. Returns null when it is not six hex octets.
 */
export function normalizeMac(input: string): string | null {
  const trimmed = input.trim();
  let hex: string;
  if (/^[0-9a-fA-F]{12}$/.test(trimmed)) hex = trimmed;
  else if (/^[0-9a-fA-F]{2}([:-])(?:[0-9a-fA-F]{2}\1){4}[0-9a-fA-F]{2}$/.test(trimmed))
    hex = trimmed.replace(/[:-]/g, '');
  else return null;
  return hex.toUpperCase().match(/.{2}/g)!.join(':');
}
