import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MAX_CLOCK_SKEW_MS, MAX_READING_AGE_MS, readingInputSchema } from '@pawguard/shared';
import { IntegrationInstructions } from './integration-instructions';

describe('Integration Instructions', () => {
  it('shows a reading that the server takes as it is, whatever the day it is copied', () => {
    render(<IntegrationInstructions />);
    const request = screen.getByLabelText('Reading request').textContent!;
    // The body follows the headers and a blank line.
    const body = JSON.parse(request.slice(request.indexOf('\n\n') + 2)) as unknown;
    const parsed = readingInputSchema.parse(body);
    const now = Date.now();
    expect(parsed.timestamp).toBeGreaterThan(now - MAX_READING_AGE_MS);
    expect(parsed.timestamp).toBeLessThanOrEqual(now + MAX_CLOCK_SKEW_MS);
  });

  it('says which timestamps are refused', () => {
    render(<IntegrationInstructions />);
    expect(
      screen.getByText(/more than 5 minutes in the future or more than 7 days old is refused/),
    ).toBeInTheDocument();
  });
});
