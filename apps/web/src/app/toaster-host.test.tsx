import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import ToasterHost from './toaster-host';

function Search() {
  return <output data-testid="search">{useLocation().search}</output>;
}

function renderAt(url: string) {
  render(
    <MemoryRouter initialEntries={[url]}>
      <ToasterHost />
      <Search />
    </MemoryRouter>,
  );
}

describe('ToasterHost', () => {
  it("shows 'Email confirmed' for a confirmed link and drops the parameter", async () => {
    renderAt('/?confirmed=1');
    expect(await screen.findByText('Email confirmed')).toBeInTheDocument();
    expect(screen.getByTestId('search')).toHaveTextContent('');
  });

  it('says why when the link was invalid or already used, and drops the parameter', async () => {
    renderAt('/?confirmed=0');
    expect(await screen.findByText('Email not confirmed')).toBeInTheDocument();
    expect(
      screen.getByText('This confirmation link is invalid or has already been used.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('search')).toHaveTextContent('');
  });
});
