import { Button } from '@/components/ui/button';

/** What LoadMore reads of a paged list (lib/paged-list.ts usePagedList). */
export type PagedListState = {
  data: readonly unknown[] | undefined;
  total: number | undefined;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
};

/**
 * Under a paged list: how much of it is shown, and a button for the next page. A list that
 * filters what it has loaded says itself how much it shows (`count={false}`): "Showing 6 of 6"
 * here would contradict its "Showing 0 of 6" above.
 */
export function LoadMore({
  list,
  noun,
  count = true,
}: {
  list: PagedListState;
  noun: string;
  count?: boolean;
}) {
  const { total } = list;
  if (total === undefined || total === 0 || (!count && !list.hasMore)) return null;
  return (
    <div className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
      {count ? (
        <p aria-live="polite">
          Showing {list.data?.length ?? 0} of {total} {noun}
        </p>
      ) : null}
      {list.hasMore ? (
        <Button variant="outline" size="sm" onClick={list.loadMore} disabled={list.loadingMore}>
          {list.loadingMore ? 'Loading...' : `Load more ${noun}`}
        </Button>
      ) : null}
    </div>
  );
}
