import { describe, expect, it } from 'vitest';
import { LoginThrottle } from './login-throttle.js';
import { TooManyRequestsError } from './errors.js';

const refused = (f: () => void) => {
  try {
    f();
    return false;
  } catch (err) {
    return err instanceof TooManyRequestsError;
  }
};

describe('the login throttle', () => {
  it('locks an account and address pair after 10 attempts, other addresses still pass', () => {
    const th = new LoginThrottle();
    for (let i = 0; i < 10; i++) th.begin('a@x', '10.0.0.1', 0);
    expect(refused(() => th.begin('a@x', '10.0.0.1', 0))).toBe(true);
    expect(refused(() => th.begin('a@x', '10.0.0.2', 0))).toBe(false);
  });

  it('locks the account from every address after 100 attempts from rotating addresses', () => {
    const th = new LoginThrottle();
    for (let i = 0; i < 100; i++) th.begin('a@x', `10.0.${i >> 8}.${i & 255}`, 0);
    expect(refused(() => th.begin('a@x', '192.0.2.1', 1_000))).toBe(true);
    expect(refused(() => th.begin('b@x', '192.0.2.1', 1_000))).toBe(false);
    // The lock ends with its window: never for ever.
    expect(refused(() => th.begin('a@x', '192.0.2.1', 15 * 60 * 1000))).toBe(false);
  });

  it("starts the address's count again after a success", () => {
    const th = new LoginThrottle();
    for (let i = 0; i < 9; i++) th.begin('a@x', '10.0.0.1', 0);
    th.succeeded('a@x', '10.0.0.1', 0);
    for (let i = 0; i < 10; i++) th.begin('a@x', '10.0.0.1', 0);
    expect(refused(() => th.begin('a@x', '10.0.0.1', 0))).toBe(true);
  });

  it('a success does not hand guessers a fresh ceiling', () => {
    const th = new LoginThrottle();
    th.succeeded('a@x', '198.51.100.7', 0);
    const t = 60_000;
    for (let i = 0; i < 100; i++) th.begin('a@x', `10.0.${i >> 8}.${i & 255}`, t);
    // The owner signs in from home during the attack, five times over…
    for (let n = 0; n < 5; n++) {
      th.begin('a@x', '198.51.100.7', t);
      th.succeeded('a@x', '198.51.100.7', t);
    }
    // …and a new address is still refused until the window ends.
    expect(refused(() => th.begin('a@x', '192.0.2.1', t))).toBe(true);
  });

  it('keeps an owner signing in from a known address in, while strangers hold the ceiling', () => {
    const th = new LoginThrottle();
    th.begin('a@x', '198.51.100.7', 0);
    th.succeeded('a@x', '198.51.100.7', 0); // the owner's home address
    const t = 60 * 60 * 1000;
    for (let i = 0; i < 100; i++) th.begin('a@x', `10.0.${i >> 8}.${i & 255}`, t);
    expect(refused(() => th.begin('a@x', '192.0.2.1', t))).toBe(true); // a new address
    expect(refused(() => th.begin('a@x', '198.51.100.7', t))).toBe(false); // home still works
    // Held to the strict count there, like any address: 10 wrong guesses lock it.
    for (let i = 1; i < 10; i++) th.begin('a@x', '198.51.100.7', t);
    expect(refused(() => th.begin('a@x', '198.51.100.7', t))).toBe(true);
    // Known for 30 days after the last success, then an address like any other.
    const later = t + 31 * 24 * t;
    for (let i = 0; i < 100; i++) th.begin('a@x', `10.1.${i >> 8}.${i & 255}`, later);
    expect(refused(() => th.begin('a@x', '198.51.100.7', later))).toBe(true);
  });

  it('remembers only the last 5 addresses an account signed in from', () => {
    const th = new LoginThrottle();
    for (let i = 0; i < 6; i++) th.succeeded('a@x', `198.51.100.${i}`, 0);
    for (let i = 0; i < 100; i++) th.begin('a@x', `10.0.${i >> 8}.${i & 255}`, 1);
    expect(refused(() => th.begin('a@x', '198.51.100.0', 1))).toBe(true);
    expect(refused(() => th.begin('a@x', '198.51.100.5', 1))).toBe(false);
  });
});
