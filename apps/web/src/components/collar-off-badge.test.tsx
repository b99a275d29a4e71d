import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { makeDevice } from '@/testing/devices';
import { CollarOffBadge } from './collar-off-badge';

describe('CollarOffBadge', () => {
  it('says "Collar off?" in a neutral colour while the collar seems not worn', () => {
    render(<CollarOffBadge device={makeDevice({ collar_off: true })} />);
    const badge = screen.getByText('Collar off?');
    expect(badge).toHaveAttribute('data-collar-off', 'true');
    // Not a heat colour: the muted look, as for a disconnected collar.
    expect(badge.className).not.toMatch(/red|amber|destructive|warning/);
  });

  it('shows nothing while the collar is worn, or unknown', () => {
    const { container } = render(<CollarOffBadge device={makeDevice({ collar_off: false })} />);
    expect(container).toBeEmptyDOMElement();
    render(<CollarOffBadge device={undefined} />);
    expect(screen.queryByText('Collar off?')).toBeNull();
  });
});
