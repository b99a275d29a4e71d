import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { MAX_CLOCK_SKEW_MS, MAX_READING_AGE_MS, readingInputSchema } from '@pawguard/shared';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { IntegrationInstructions } from './integration-instructions';

const CONFIG = {
  support_email: 'help@example.org',
  support_phone: '(800) 555-0142',
  support_phone_tel: '+18005550142',
};

function render(mqttPort: number | null = null) {
  stubFetch({ 'GET /api/config': () => jsonResponse(200, { ...CONFIG, mqtt_port: mqttPort }) });
  return renderWithProviders(<IntegrationInstructions />, {
    auth: fakeAuth(makeUser({ role: 'admin' })),
  });
}

describe('Integration Instructions', () => {
  it('shows a reading that the server takes as it is, whatever the day it is copied', () => {
    render();
    const request = screen.getByLabelText('Reading request').textContent!;
    // The body follows the headers and a blank line.
    const body = JSON.parse(request.slice(request.indexOf('\n\n') + 2)) as unknown;
    const parsed = readingInputSchema.parse(body);
    const now = Date.now();
    expect(parsed.timestamp).toBeGreaterThan(now - MAX_READING_AGE_MS);
    expect(parsed.timestamp).toBeLessThanOrEqual(now + MAX_CLOCK_SKEW_MS);
  });

  it('says which timestamps are refused', () => {
    render();
    expect(
      screen.getByText(
        /more than 5 minutes in the future or older than the server takes \(7\s+days/,
      ),
    ).toBeInTheDocument();
  });

  it('says how to send readings over MQTT when the server listens for collars there', async () => {
    render(1883);
    const example = await screen.findByLabelText('MQTT example');
    expect(example).toHaveTextContent('-p 1883');
    expect(example).toHaveTextContent('-i PET-AB12 -u PET-AB12');
    expect(example).toHaveTextContent('-t pawguard/devices/PET-AB12/vitals');
    expect(example).not.toHaveTextContent(/ -r\b/);
    expect(
      screen.getByText(
        /exactly: the Device ID in capitals as printed \(PET-AB12\), without the retain flag/,
      ),
    ).toBeInTheDocument();
  });

  it('says nothing of MQTT while it is off', async () => {
    render(null);
    expect(await screen.findByLabelText('Reading request')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText('Or send readings over MQTT')).toBeNull();
  });
});
