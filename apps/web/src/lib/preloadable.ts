import { createElement, lazy, type ComponentType } from 'react';

type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

/**
 * React.lazy that renders at once when its code has already arrived. A plain lazy component
 * suspends on its first render even then (it only learns that its import has resolved a tick
 * later), and React holds back the content that follows a Suspense fallback for up to 300 ms
 * so that loaders do not flicker: on a returning owner's dashboard that was 300 ms of loader
 * after everything was there. `preload()` starts the import; once it has resolved, the
 * component renders without suspending.
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
        loading = undefined; // the next render tries again
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(preload);
  function Preloadable(props: P) {
    return createElement(loaded ?? Lazy, props);
  }
  return Object.assign(Preloadable, { preload });
}
