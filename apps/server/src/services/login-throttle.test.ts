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

  it('starts the counts again after a success', () => {
    const th = new LoginThrottle();
    for (let i = 0; i < 9; i++) th.begin('a@x', '10.0.0.1', 0);
    th.succeeded('a@x', '10.0.0.1');
    for (let i = 0; i < 10; i++) th.begin('a@x', '10.0.0.1', 0);
    expect(refused(() => th.begin('a@x', '10.0.0.1', 0))).toBe(true);
  });
});
