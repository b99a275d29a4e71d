import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfirmDialog } from './confirm-dialog';
import { MAIN_ID } from '@/lib/main-region';

/** Pets on a page, each with a Delete button that opens a confirmation (from state). */
function Pets() {
  const [pets, setPets] = useState(['Biscuit', 'Rex']);
  const [deleting, setDeleting] = useState<string | null>(null);
  return (
    <main id={MAIN_ID} tabIndex={-1}>
      {pets.map((pet) => (
        <button key={pet} type="button" onClick={() => setDeleting(pet)}>
          Delete {pet}
        </button>
      ))}
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title={`Delete ${deleting}?`}
        description="This cannot be undone."
        onConfirm={() => {
          setPets((list) => list.filter((p) => p !== deleting));
          setDeleting(null);
        }}
      />
    </main>
  );
}

describe('closing a dialog', () => {
  it('gives focus back to what opened it, or to the main region once that is gone', async () => {
    render(<Pets />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete Rex' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Delete Rex' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Delete Rex' }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(screen.queryByRole('button', { name: 'Delete Rex' })).toBeNull();
    expect(screen.getByRole('main')).toHaveFocus();
  });
});
