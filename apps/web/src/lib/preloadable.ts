import { createElement, lazy, useState, type ComponentType } from 'react';

type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

/**
 * A component whose code loads on demand, like React.lazy, but that renders at once when its
 * code has already arrived. A lazy component suspends on its first render even then (it only
 * learns a tick later that its import has resolved), and React holds back the content that
 * follows a Suspense fallback for up to 300 ms so that loaders do not flicker: on a returning
 * owner's dashboard that was 300 ms of loader after everything was there. `preload()` starts
 * the import; a component mounted once it has resolved renders without suspending.
 *
 * Each mount chooses once: the component itself, or (code still on the way) a lazy one that
 * it keeps. Switching between the two would be a different element type, which React would
 * remount, losing the screen's state. A failed import goes to the error boundary; the next
 * mount tries again.
 */
export function preloadable<P extends object>(
  load: Loader<P>,
): ComponentType<P> & { preload: () => Promise<unknown> } {
  let loaded: ComponentType<P> | undefined;
  let loading: ReturnType<Loader<P>> | undefined;
  const preload = (): ReturnType<Loader<P>> => {
    loading ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown): never => {
        loading = undefined;
        Lazy = lazy(preload); // React.lazy keeps a failure for good: a fresh one tries again
        throw error;
      },
    );
    return loading;
  };
  let Lazy = lazy(preload);
  function Preloadable(props: P) {
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return createElement(Component, props);
  }
  return Object.assign(Preloadable, { preload });
}
