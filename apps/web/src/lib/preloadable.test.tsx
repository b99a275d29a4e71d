import { Component, Suspense, startTransition, useEffect, useState, type ReactNode } from 'react';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { preloadable } from './preloadable';

const Greeting = ({ name }: { name: string }) => <p>Hello {name}</p>;
const load = () => Promise.resolve({ default: Greeting });
/** Code that arrives a moment after it is asked for, as a chunk does. */
const slowLoad =
  <T,>(module: T) =>
  () =>
    new Promise<T>((resolve) => setTimeout(() => resolve(module), 5));

class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? (
      <button type="button" onClick={() => this.setState({ failed: false })}>
        Reload
      </button>
    ) : (
      this.props.children
    );
  }
}

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

  it('shows the loader while its code is on the way, and then the screen', async () => {
    let arrive: (module: { default: typeof Greeting }) => void = () => undefined;
    const Screen = preloadable(
      () => new Promise<{ default: typeof Greeting }>((resolve) => (arrive = resolve)),
    );
    await act(async () => {
      render(
        <Suspense fallback={<p>Loading…</p>}>
          <Screen name="Luna" />
        </Suspense>,
      );
    });
    expect(screen.getByText('Loading…')).toBeInTheDocument();
    await act(async () => arrive({ default: Greeting }));
    expect(screen.getByText('Hello Luna')).toBeInTheDocument();
  });

  it('mounts the screen once, keeping its state, when its code arrives during a transition', async () => {
    let mounts = 0;
    function Counter({ label }: { label: string }) {
      const [count, setCount] = useState(0);
      useEffect(() => void mounts++, []);
      return (
        <button type="button" onClick={() => setCount((c) => c + 1)}>
          {label} {count}
        </button>
      );
    }
    const Screen = preloadable(slowLoad({ default: Counter }));
    function Parent() {
      const [label, setLabel] = useState('Clicks');
      return (
        <>
          <button type="button" onClick={() => setLabel('Taps')}>
            Rename
          </button>
          <Suspense fallback={<p>Loading…</p>}>
            <Screen label={label} />
          </Suspense>
        </>
      );
    }
    const { container } = render(<div />);
    const { rerender } = render(<div />, { container });
    await act(async () => startTransition(() => rerender(<Parent />)));
    const button = await screen.findByRole('button', { name: 'Clicks 0' });
    await act(async () => button.click());
    await act(async () => screen.getByRole('button', { name: 'Rename' }).click());
    expect(screen.getByRole('button', { name: 'Taps 1' })).toBeInTheDocument();
    expect(mounts).toBe(1);
  });

  it('tries again on the next render after its code failed to load', async () => {
    let calls = 0;
    const Screen = preloadable(() =>
      ++calls === 1
        ? Promise.reject<Awaited<ReturnType<typeof load>>>(new Error('offline'))
        : load(),
    );
    await expect(Screen.preload()).rejects.toThrow('offline');
    const quiet = console.error;
    console.error = () => undefined;
    try {
      await act(async () => {
        render(
          <Boundary>
            <Suspense fallback={<p>Loading…</p>}>
              <Screen name="Max" />
            </Suspense>
          </Boundary>,
        );
      });
      expect(screen.getByText('Hello Max')).toBeInTheDocument();
    } finally {
      console.error = quiet;
    }
    expect(calls).toBe(2);
  });
});
