import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { renderWithProviders } from '@/testing/render';
import { SafetyPage } from './safety-page';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

function setup() {
  renderWithProviders(<SafetyPage />, { route: '/safety' });
  return userEvent.setup();
}

describe('SafetyPage', () => {
  beforeEach(() => vi.mocked(toast.success).mockClear());

  it('opens on General Tips with four tips and their severity', () => {
    setup();
    expect(screen.getByRole('tab', { name: 'General Tips' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    const panel = screen.getByRole('tabpanel', { name: 'General Tips' });
    const tips = within(panel).getAllByRole('listitem');
    expect(tips.map((tip) => within(tip).getByRole('heading').textContent)).toEqual([
      'Always provide fresh water',
      'Stay in the shade during peak hours',
      'Check paw pad temperature',
      'Never leave pets in cars',
    ]);
    expect(
      tips.map((tip) => tip.textContent?.match(/Severity: (Critical|High|Medium)/)?.[1]),
    ).toEqual(['Critical', 'High', 'Medium', 'Critical']);
    expect(within(panel).getByText(/10 AM-4 PM/)).toBeInTheDocument();
  });

  it('says once that the collar’s temperature is not the dog’s core temperature', () => {
    setup();
    const note = screen.getByRole('region', {
      name: 'What "Body temperature (collar)" measures',
    });
    expect(note).toHaveTextContent("not your dog's core temperature");
    expect(note).toHaveTextContent('not comparable with the normal pet temperature of 100-102.5°F');
  });

  it('switches to the Emergency tab: four protocol steps and a way to the vet finder', async () => {
    const user = setup();
    await user.click(screen.getByRole('tab', { name: 'Emergency' }));

    expect(screen.getByRole('tab', { name: 'Emergency' })).toHaveAttribute('aria-selected', 'true');
    const panel = screen.getByRole('tabpanel', { name: 'Emergency' });
    const steps = within(within(panel).getByRole('list')).getAllByRole('listitem');
    expect(steps).toHaveLength(4);
    expect(steps[0]).toHaveTextContent('Recognize the signs');
    expect(steps[1]).toHaveTextContent('Cool down gradually');
    expect(steps[2]).toHaveTextContent('Offer small amounts of water');
    expect(steps[3]).toHaveTextContent('Contact a veterinarian');
    expect(within(panel).getByRole('link', { name: 'Find Emergency Vets' })).toHaveAttribute(
      'href',
      '/emergency',
    );
    expect(screen.queryByRole('tabpanel', { name: 'General Tips' })).not.toBeInTheDocument();
  });

  it('moves between tabs with the arrow keys', async () => {
    const user = setup();
    await user.click(screen.getByRole('tab', { name: 'General Tips' }));
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Weather Guide' })).toHaveFocus();
    expect(screen.getByRole('tabpanel', { name: 'Weather Guide' })).toBeInTheDocument();
  });

  it('shows the temperature table and a sample weather check with a 3-second toast', async () => {
    const user = setup();
    await user.click(screen.getByRole('tab', { name: 'Weather Guide' }));
    const panel = screen.getByRole('tabpanel', { name: 'Weather Guide' });
    const rows = within(within(panel).getByRole('table')).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(0, 2)
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['60-70°F', 'Perfect'],
      ['70-75°F', 'Good'],
      ['75-80°F', 'Caution'],
      ['80-85°F', 'Hot'],
      ['85°F+', 'Danger'],
    ]);
    expect(within(panel).getByRole('heading', { name: 'Legend' })).toBeInTheDocument();

    expect(within(panel).queryByText('78°F')).not.toBeInTheDocument();
    await user.click(
      within(panel).getByRole('button', { name: 'Check Current Weather Safety Level' }),
    );
    expect(within(panel).getByText('78°F')).toBeInTheDocument();
    expect(
      within(panel).getByText('Monitor closely and provide extra water breaks'),
    ).toBeInTheDocument();
    expect(within(panel).getByText('Sample result')).toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith(
      'Weather Check Complete',
      expect.objectContaining({ duration: 3000 }),
    );
  });
});
