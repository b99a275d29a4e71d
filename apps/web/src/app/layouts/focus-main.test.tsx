import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter, Route, Routes } from 'react-router';
import { useFocusMainOnNavigate } from './focus-main';
import { MAIN_ID } from '@/lib/main-region';

function Layout({ page }: { page: string }) {
  useFocusMainOnNavigate();
  return (
    <>
      <nav>
        <Link to="/a">Page A</Link>
        <Link to="/b">Page B</Link>
      </nav>
      <main id={MAIN_ID} tabIndex={-1}>
        <h1>{page}</h1>
        <Link to="/other">Other page</Link>
        {page === 'C' ? (
          // A page that puts focus somewhere of its own keeps it there.
          <input aria-label="Search" autoFocus />
        ) : (
          <Link to="/c">Page C</Link>
        )}
      </main>
    </>
  );
}

/** A page under a layout of its own (as /emergency is): the move mounts it afresh. */
function OtherLayout() {
  useFocusMainOnNavigate();
  return (
    <main id={MAIN_ID} tabIndex={-1}>
      <h1>Other</h1>
    </main>
  );
}

function App() {
  return (
    <Routes>
      {['a', 'b', 'c'].map((p) => (
        <Route key={p} path={`/${p}`} element={<Layout page={p.toUpperCase()} />} />
      ))}
      <Route path="/other" element={<OtherLayout />} />
    </Routes>
  );
}

describe('moving to another page', () => {
  it('puts focus on the new page’s main region, not <body>; a first load and a page’s own focus are left alone', async () => {
    render(
      <MemoryRouter initialEntries={['/a']}>
        <App />
      </MemoryRouter>,
    );
    const user = userEvent.setup();
    expect(document.body).toHaveFocus();
    await user.click(screen.getByRole('link', { name: 'Page B' }));
    expect(await screen.findByRole('heading', { name: 'B' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveFocus();
    await user.click(screen.getByRole('link', { name: 'Page C' }));
    expect(await screen.findByRole('heading', { name: 'C' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveFocus();
    await user.click(screen.getByRole('link', { name: 'Other page' }));
    expect(await screen.findByRole('heading', { name: 'Other' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveFocus();
  });
});
