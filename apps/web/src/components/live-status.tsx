import { useLiveStatus } from '@/lib/realtime';
import { cn } from '@/lib/utils';

/**
 * Says quietly whether live updates are arriving: 'Live' while the stream is open, and that
 * the page is polling instead while it is down. Nothing while the first connection opens.
 */
export function LiveStatus({ fallback, className }: { fallback: string; className?: string }) {
  const status = useLiveStatus();
  return (
    <span role="status" className={cn('inline-flex items-center gap-1.5 text-sm', className)}>
      {status === 'live' ? (
        <>
          <span className="size-2 rounded-full bg-green-600" aria-hidden="true" />
          <span className="text-muted-foreground">Live</span>
        </>
      ) : status === 'down' ? (
        <>
          <span className="size-2 rounded-full bg-slate-400" aria-hidden="true" />
          <span className="text-muted-foreground">Live updates paused; {fallback}.</span>
        </>
      ) : null}
    </span>
  );
}
