import { describe, expect, it } from 'vitest';
import { telHref } from './phone';

describe('telHref', () => {
  it('writes a number as a tel: link dials it', () => {
    expect(telHref('(800) 555-0142')).toBe('+18005550142');
    expect(telHref('+44 20 7946 0000')).toBe('+442079460000');
    expect(telHref('555 0142 99')).toBe('555014299');
  });
});
