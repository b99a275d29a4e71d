import { createElement, use, type ComponentType } from 'react';

type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

/**
 * A component whose code loads on demand, like React.lazy, but that renders at once when its
 * code has already arrived. A lazy component suspends on its first render even then (it only
 * learns a tick later that its import has resolved), and React holds back the content that
 * follows a Suspense fallback for up to 300 ms so that loaders do not flicker: on a returning
 * owner's dashboard that was 300 ms of loader after everything was there. `preload()` starts
 * the import; once it has resolved, the component renders without suspending. Until then it
 * suspends on the import itself, so only the real component is ever mounted (never a
 * stand-in that a later render would swap for it, losing its state). A failed import is
 * thrown to the error boundary, and the next render tries again.
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
        throw error;
      },
    );
    return loading;
  };
  function Preloadable(props: P) {
    return createElement(loaded ?? use(preload()).default, props);
  }
  return Object.assign(Preloadable, { preload });
}
