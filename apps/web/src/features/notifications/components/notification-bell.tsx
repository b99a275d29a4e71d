import { useState } from 'react';
import { Link } from 'react-router';
import { Bell, BellRing, CheckCheck } from 'lucide-react';
import { toast } from 'sonner';
import { formatRelativeTime, type Notification } from '@pawguard/shared';
import { AlertAcknowledgement } from '@/components/alert-acknowledgement';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
  SheetTrigger,
} from '@/components/ui/sheet';
import { Spinner } from '@/components/ui/spinner';
import { deviceHistoryPath } from '@/config/paths';
import { useNow } from '@/lib/use-now';
import { cn } from '@/lib/utils';
import {
  useLatestNotifications,
  useMarkAllRead,
  useMarkRead,
  useUnreadCount,
} from '../api/notifications';

/**
 * The bell in the signed-in header (DESIGN §6): the live unread count, and a sheet with the
 * latest 20 notifications, each linking to its collar, with Mark read and Mark all read; an
 * alert sent again because nobody acknowledged it is marked "Not yet acknowledged". A
 * sheet, so it works the same on a phone and by keyboard (focus moves in, Escape closes,
 * focus returns to the bell).
 */
export function NotificationBell() {
  const [open, setOpen] = useState(false);
  const unread = useUnreadCount();
  const count = unread.data?.count ?? 0;
  const label = count ? `Notifications, ${count} unread` : 'Notifications, none unread';

  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button variant="ghost" size="icon" className="relative" aria-label={label}>
          <Bell aria-hidden="true" />
          {count > 0 ? (
            <span
              aria-hidden="true"
              data-testid="unread-count"
              className="absolute -right-0.5 -top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-xs font-semibold text-white"
            >
              {count > 99 ? '99+' : count}
            </span>
          ) : null}
        </Button>
      </SheetTrigger>
      <SheetContent aria-describedby={undefined}>
        <SheetHeader>
          <SheetTitle>Notifications</SheetTitle>
          <SheetDescription>
            {count ? `${count} unread` : 'You are all caught up.'}
          </SheetDescription>
        </SheetHeader>
        {open ? <NotificationList onNavigate={() => setOpen(false)} unread={count} /> : null}
      </SheetContent>
    </Sheet>
  );
}

function NotificationList({ onNavigate, unread }: { onNavigate: () => void; unread: number }) {
  const list = useLatestNotifications({ enabled: true });
  const markAll = useMarkAllRead();
  const now = useNow(10_000);

  if (list.isPending)
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
        <Spinner /> Loading notifications...
      </p>
    );
  if (list.isError)
    return (
      <p role="alert" className="text-sm">
        Notifications could not be loaded.{' '}
        <button type="button" className="underline" onClick={() => void list.refetch()}>
          Try again
        </button>
      </p>
    );
  if (list.data.length === 0)
    return (
      <p className="text-sm text-muted-foreground">
        No notifications yet. When a collar reports heat, goes offline or runs low, it shows here.
      </p>
    );
  return (
    <div className="grid gap-3">
      <div className="flex justify-end">
        <Button
          variant="outline"
          size="sm"
          disabled={unread === 0 || markAll.isPending}
          onClick={() =>
            markAll.mutate(undefined, {
              onError: () =>
                toast.error('Error', { description: 'Failed to mark notifications read' }),
            })
          }
        >
          <CheckCheck aria-hidden="true" />
          Mark all read
        </Button>
      </div>
      <ul className="grid gap-2">
        {list.data.map((n) => (
          <NotificationItem key={n.id} notification={n} now={now} onNavigate={onNavigate} />
        ))}
      </ul>
    </div>
  );
}

function NotificationItem({
  notification: n,
  now,
  onNavigate,
}: {
  notification: Notification;
  now: number;
  onNavigate: () => void;
}) {
  const markRead = useMarkRead();
  return (
    <li
      className={cn(
        'rounded-lg border p-3 text-sm',
        n.read ? 'bg-card' : 'border-orange-200 bg-orange-50',
      )}
      data-read={n.read}
    >
      <div className="flex items-start gap-2">
        {n.read ? null : (
          <span className="mt-1.5 size-2 shrink-0 rounded-full bg-orange-600" aria-hidden="true" />
        )}
        <div className="min-w-0 flex-1">
          <Link
            to={deviceHistoryPath(n.device)}
            onClick={onNavigate}
            className="font-semibold underline-offset-2 hover:underline"
          >
            {n.read ? null : <span className="sr-only">Unread: </span>}
            {n.title}
          </Link>
          {n.kind === 'unacknowledged' && n.acknowledged_at === null ? (
            <Badge
              variant={n.read ? 'muted' : 'destructive'}
              className="mt-1"
              data-testid="not-acknowledged"
            >
              <BellRing aria-hidden="true" />
              Not yet acknowledged
            </Badge>
          ) : null}
          <p className="mt-1 text-muted-foreground">{n.message}</p>
          <AlertAcknowledgement alert={n} now={now} className="mt-1 text-xs font-medium" />
          <p className="mt-1 text-xs text-muted-foreground">
            <time dateTime={n.created_at}>{formatRelativeTime(n.created_at, now)}</time>
          </p>
        </div>
        {n.read ? null : (
          <Button
            variant="ghost"
            size="sm"
            disabled={markRead.isPending}
            aria-label={`Mark read: ${n.title}`}
            onClick={() =>
              markRead.mutate(n.id, {
                onError: () =>
                  toast.error('Error', { description: 'Failed to mark the notification read' }),
              })
            }
          >
            Mark read
          </Button>
        )}
      </div>
    </li>
  );
}
