import { describe, expect, it } from 'vitest';
import { givenUpReason } from '../../src/services/outbox-worker.js';
import { mailKindOf } from '../../src/services/undelivered-mail.js';

describe('why a mail was given up, as the Admin Portal shows it', () => {
  const refusal = Object.assign(new Error("Can't send mail - all recipients were rejected"), {
    command: 'RCPT TO',
    responseCode: 550,
    response: '550 5.1.1 <ann@example.com>:\r\n user unknown',
  });

  it('is the mail server’s own answer, on one line, when it refused the recipient', () => {
    expect(givenUpReason(refusal, true)).toBe('550 5.1.1 <ann@example.com>: user unknown');
  });

  it('says a day of retries ran out, with the last failure, otherwise', () => {
    expect(givenUpReason(new Error('Greeting never received'), false)).toBe(
      'gave up after a day of retries (last: Greeting never received)',
    );
    expect(givenUpReason(undefined, false)).toBe(
      'gave up after a day of retries (last: no answer)',
    );
  });

  it('never carries the credentials of a URL, and is at most 300 characters of answer', () => {
    const reason = givenUpReason(
      new Error('cannot reach smtp://pawguard:hunter2@mail.example.com:587'),
      false,
    );
    expect(reason).not.toContain('hunter2');
    expect(reason).toContain('smtp://mail.example.com:587');
    expect(givenUpReason({ response: `550 ${'x'.repeat(1000)}` }, true)).toHaveLength(300);
  });
});

describe('what a given-up mail was about, from its outbox key', () => {
  it.each([
    ['alert-5f0c', 'alert'],
    ['digest-u1-daily-2026-07-01T00:00:00.000Z-9a', 'digest'],
    ['confirm-u1', 'confirmation'],
    ['collar-setup-a1', 'collar_setup'],
    ['something-else', 'other'],
  ] as const)('%s is %s', (key, kind) => {
    expect(mailKindOf(key)).toBe(kind);
  });
});
