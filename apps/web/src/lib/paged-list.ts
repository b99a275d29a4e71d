import { useMemo } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';

/** One page of a list as the API answers it: its rows and how many there are in all. */
export type Page<T> = { rows: T[]; total: number };
export type FetchPage<T> = (offset: number, signal?: AbortSignal) => Promise<Page<T>>;

/**
 * The path of the page starting at `offset`. The first page is the bare path (the server's
 * default page is the first 100), later ones add `offset`.
 */
export function pagePath(path: string, offset: number): string {
  if (offset === 0) return path;
  return `${path}${path.includes('?') ? '&' : '?'}offset=${offset}`;
}

const loadedCount = <T>(pages: readonly Page<T>[]) => pages.reduce((n, p) => n + p.rows.length, 0);

/** Every page of a list a person owns (bounded by what they created): one array. */
export async function fetchAllPages<T>(fetchPage: FetchPage<T>, signal?: AbortSignal) {
  const pages: Page<T>[] = [];
  for (;;) {
    const page = await fetchPage(loadedCount(pages), signal);
    pages.push(page);
    if (page.rows.length === 0 || loadedCount(pages) >= page.total) break;
  }
  return pages.flatMap((p) => p.rows);
}

/**
 * A list that can grow without bound (the admin's tables): the first page at once, the next
 * one on `loadMore()`. `data` is every row loaded so far; `total` the size of the whole list.
 */
export function usePagedList<T, P extends Page<T> = Page<T>>(
  queryKey: readonly unknown[],
  fetchPage: (offset: number, signal?: AbortSignal) => Promise<P>,
  {
    enabled = true,
    refetchIntervalMs,
  }: { enabled?: boolean; refetchIntervalMs?: number | undefined } = {},
) {
  const query = useInfiniteQuery({
    queryKey,
    enabled,
    refetchInterval: refetchIntervalMs ?? false,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    getNextPageParam: (last, pages) => {
      const loaded = loadedCount(pages);
      return last.rows.length > 0 && loaded < last.total ? loaded : undefined;
    },
  });
  // The same array while the pages are the same, so screens can depend on it.
  const data = useMemo(() => query.data?.pages.flatMap((p) => p.rows), [query.data]);
  return {
    data,
    total: query.data?.pages.at(-1)?.total,
    firstPage: query.data?.pages[0],
    dataUpdatedAt: query.dataUpdatedAt,
    isPending: query.isPending,
    isError: query.isError,
    error: query.error,
    refetch: query.refetch,
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loadMore: () => void query.fetchNextPage(),
  };
}
