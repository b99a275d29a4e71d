import { Button } from '@/components/ui/button';

/** Under a paged list: how much of it is shown, and a button for the next page. */
export function LoadMore({
  shown,
  total,
  noun,
  hasMore,
  loading,
  onLoadMore,
}: {
  shown: number;
  total: number | undefined;
  noun: string;
  hasMore: boolean;
  loading: boolean;
  onLoadMore: () => void;
}) {
  if (total === undefined || total === 0) return null;
  return (
    <div className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
      <p aria-live="polite">
        Showing {shown} of {total} {noun}
      </p>
      {hasMore ? (
        <Button variant="outline" size="sm" onClick={onLoadMore} disabled={loading}>
          {loading ? 'Loading...' : `Load more ${noun}`}
        </Button>
      ) : null}
    </div>
  );
}
