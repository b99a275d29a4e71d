import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  NOTIFICATIONS_BELL_SIZE,
  notificationResponseSchema,
  notificationsResponseSchema,
  unreadCountResponseSchema,
  type Notification,
} from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { useLiveFallback } from '@/lib/realtime';

const UNREAD_COUNT_POLL_MS = 10_000;

/** Everything about notifications and alerts lives under these keys (the stream patches them). */
export const notificationKeys = {
  unreadCount: ['notifications', 'unread-count'] as const,
  latest: ['notifications', 'latest'] as const,
};

export const unreadCountQueryOptions = () =>
  queryOptions({
    queryKey: notificationKeys.unreadCount,
    queryFn: ({ signal }) =>
      api.get('/notifications/unread-count', unreadCountResponseSchema, signal),
  });

export const latestNotificationsQueryOptions = () =>
  queryOptions({
    queryKey: notificationKeys.latest,
    queryFn: async ({ signal }) =>
      (
        await api.get(
          `/notifications?limit=${NOTIFICATIONS_BELL_SIZE}`,
          notificationsResponseSchema,
          signal,
        )
      ).notifications,
  });

export function useUnreadCount() {
  // The live stream carries each new notification; without it the header polls (spec §9).
  return useQuery({
    ...unreadCountQueryOptions(),
    refetchInterval: useLiveFallback(UNREAD_COUNT_POLL_MS),
  });
}

export function useLatestNotifications({ enabled }: { enabled: boolean }) {
  return useQuery({ ...latestNotificationsQueryOptions(), enabled });
}

/** Marks one read; the list and the count follow at once. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.put(
        `/notifications/${encodeURIComponent(id)}/read`,
        undefined,
        notificationResponseSchema,
      ),
    onSuccess: ({ notification }) => {
      const list = queryClient.getQueryData<Notification[]>(notificationKeys.latest);
      const was = list?.find((n) => n.id === notification.id);
      queryClient.setQueryData<Notification[]>(notificationKeys.latest, (l) =>
        l?.map((n) => (n.id === notification.id ? notification : n)),
      );
      if (was && !was.read)
        queryClient.setQueryData<{ count: number }>(notificationKeys.unreadCount, (c) =>
          c ? { count: Math.max(0, c.count - 1) } : c,
        );
      else void queryClient.invalidateQueries({ queryKey: notificationKeys.unreadCount });
    },
  });
}

export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.put('/notifications/mark-all-read'),
    onSuccess: () => {
      queryClient.setQueryData<Notification[]>(notificationKeys.latest, (l) =>
        l?.map((n) => ({ ...n, read: true })),
      );
      queryClient.setQueryData(notificationKeys.unreadCount, { count: 0 });
    },
  });
}
