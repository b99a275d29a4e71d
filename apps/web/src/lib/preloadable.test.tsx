import { Suspense, lazy } from 'react';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { preloadable } from './preloadable';

const Greeting = ({ name }: { name: string }) => <p>Hello {name}</p>;
const load = () => Promise.resolve({ default: Greeting });

describe('preloadable', () => {
  it('renders at once, without its loader, once its code has arrived', async () => {
    const Screen = preloadable(load);
    await Screen.preload();
    render(
      <Suspense fallback={<p>Loading…</p>}>
        <Screen name="Biscuit" />
      </Suspense>,
    );
    expect(screen.getByText('Hello Biscuit')).toBeInTheDocument();
    expect(screen.queryByText('Loading…')).toBeNull();
  });

  it('shows the loader first when its code arrives only as it renders (as React.lazy does)', async () => {
    const Screen = preloadable(load);
    const Lazy = lazy(load);
    await load();
    for (const Component of [Screen, Lazy]) {
      const { unmount } = render(
        <Suspense fallback={<p>Loading…</p>}>
          <Component name="Luna" />
        </Suspense>,
      );
      expect(screen.getByText('Loading…')).toBeInTheDocument();
      expect(await screen.findByText('Hello Luna')).toBeInTheDocument();
      unmount();
    }
  });

  it('tries again after a failed load', async () => {
    let calls = 0;
    const Screen = preloadable(() =>
      ++calls === 1 ? Promise.reject(new Error('offline')) : load(),
    );
    await expect(Screen.preload()).rejects.toThrow('offline');
    await Screen.preload();
    render(<Screen name="Max" />);
    expect(screen.getByText('Hello Max')).toBeInTheDocument();
    expect(calls).toBe(2);
  });
});
