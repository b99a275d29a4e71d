import { Component, type ErrorInfo, type ReactNode } from 'react';
import { AlertTriangle } from 'lucide-react';
import { buttonVariants } from '@/components/ui/button-variants';
import { MAIN_ID } from '@/lib/main-region';

type Props = { children: ReactNode; resetKey: string };
type State = { error: Error | null; resetKey: string };

/**
 * The last line of defence: something threw while rendering, or a page's code failed to
 * load. Moving to another page (a new resetKey) clears it.
 */
export class AppErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const chunkFailed =
      /dynamically imported module|Importing a module script|Failed to fetch/i.test(error.message);
    return (
      <main
        id={MAIN_ID}
        role="alert"
        className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center"
      >
        <AlertTriangle className="size-10 text-destructive" aria-hidden="true" />
        <h1 className="text-2xl font-bold tracking-tight">Something went wrong</h1>
        <p className="max-w-md text-muted-foreground">
          {chunkFailed
            ? 'PawGuard was updated or the connection dropped while this page was loading.'
            : 'An unexpected error occurred. Reloading usually fixes it.'}
        </p>
        <div className="flex gap-2">
          {/* Plain elements with the button classes: this boundary is part of the landing bundle. */}
          <button
            type="button"
            className={buttonVariants()}
            onClick={() => window.location.reload()}
          >
            Reload
          </button>
          <a href="/" className={buttonVariants({ variant: 'outline' })}>
            Go to home
          </a>
        </div>
      </main>
    );
  }
}
