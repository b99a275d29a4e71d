import { useState } from 'react';
import { toast } from 'sonner';
import { MailCheck, RefreshCw, Send } from 'lucide-react';
import type { FailedMail, MailKind } from '@pawguard/shared';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { useDisplayUnits } from '@/lib/display-units';
import { useFailedMails } from '../api/get-failed-mails';
import { useRetryMail } from '../api/retry-mail';

const KIND_LABELS: Record<MailKind, string> = {
  alert: 'Alert',
  digest: 'Digest',
  confirmation: 'E-mail confirmation',
  collar_setup: 'Collar setup',
  other: 'Other',
};

/** One line under the title: how many, and whether the table shows them all. */
function summaryOf(shown: number, total: number) {
  if (total === 0) return 'Mail the server could not deliver and gave up on.';
  const all = `${total} mail${total === 1 ? '' : 's'} given up`;
  return total > shown ? `${all}; the ${shown} most recent are shown.` : `${all}.`;
}

/**
 * Mail the server gave up delivering (its recipient refused by the mail server, or a day of
 * retries ran out), with the mail server's last answer: where an admin sees an address that
 * bounces or a mail server that was down too long. Below md, each row is a card.
 */
export function UndeliveredMailCard() {
  const failed = useFailedMails();
  const { dateTime } = useDisplayUnits();
  const mails: FailedMail[] = failed.data?.mails ?? [];
  const retry = useRetryMail();
  const [retrying, setRetrying] = useState<FailedMail | null>(null);
  const confirmRetry = () => {
    if (!retrying) return;
    retry.mutate(retrying.id, {
      onSuccess: () => {
        toast.success(`Mail to ${retrying.recipient} queued again`);
        setRetrying(null);
      },
      onError: (error) => {
        toast.error('Failed to queue the mail again', { description: error.message });
        setRetrying(null);
      },
    });
  };

  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle as="h2">Undelivered mail</CardTitle>
        <CardDescription>
          {failed.data
            ? summaryOf(failed.data.mails.length, failed.data.total)
            : 'Mail the server could not deliver and gave up on.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {failed.isPending ? (
          <div role="status" aria-label="Loading undelivered mail" className="grid gap-2">
            {[0, 1].map((i) => (
              <Skeleton key={i} className="h-10 w-full" />
            ))}
          </div>
        ) : failed.isError ? (
          <div className="flex flex-col items-start gap-3">
            <p className="text-sm text-muted-foreground">
              Failed to fetch undelivered mail: {failed.error.message}
            </p>
            <Button variant="outline" onClick={() => void failed.refetch()}>
              <RefreshCw aria-hidden="true" />
              Try Again
            </Button>
          </div>
        ) : mails.length === 0 ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <MailCheck className="size-4" aria-hidden="true" />
            No undelivered mail
          </p>
        ) : (
          <div className="rounded-lg border">
            <Table scrollLabel="Undelivered mail" stacked>
              <TableHeader>
                <TableRow className="hover:bg-transparent">
                  <TableHead>Recipient</TableHead>
                  <TableHead>Subject</TableHead>
                  <TableHead>Reason</TableHead>
                  <TableHead>When</TableHead>
                  <TableHead className="text-right">Actions</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {mails.map((mail) => (
                  <TableRow key={mail.id}>
                    <TableCell className="max-w-[14rem] font-medium [overflow-wrap:anywhere] max-md:text-base">
                      {mail.recipient}
                    </TableCell>
                    <TableCell
                      data-label="Subject"
                      className="max-w-[16rem] max-md:flex-col max-md:items-start max-md:gap-0"
                    >
                      <p className="[overflow-wrap:anywhere]">{mail.subject}</p>
                      <p className="text-xs text-muted-foreground">
                        {KIND_LABELS[mail.kind]} · {mail.attempts} attempt
                        {mail.attempts === 1 ? '' : 's'}
                      </p>
                    </TableCell>
                    <TableCell
                      data-label="Reason"
                      className="max-w-[20rem] font-mono text-xs [overflow-wrap:anywhere] max-md:flex-col max-md:items-start max-md:gap-0"
                    >
                      {mail.reason}
                    </TableCell>
                    <TableCell data-label="When" className="whitespace-nowrap">
                      {mail.failed_at ? (
                        dateTime(mail.failed_at)
                      ) : (
                        <span title={`Queued ${dateTime(mail.created_at)}`}>Unknown</span>
                      )}
                    </TableCell>
                    <TableCell className="text-right max-md:mt-2 max-md:border-t max-md:pt-3">
                      <Button
                        variant="outline"
                        size="sm"
                        className="max-md:w-full"
                        onClick={() => setRetrying(mail)}
                        aria-label={`Send the mail to ${mail.recipient} again`}
                      >
                        <Send aria-hidden="true" />
                        Send again
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
      </CardContent>
      <ConfirmDialog
        open={retrying !== null}
        onClose={() => setRetrying(null)}
        title={`Send the mail to ${retrying?.recipient ?? 'this address'} again?`}
        description="It goes back in the queue and is sent at once, as it was written when it was first queued. Mend the address or the mail server first, or it will be given up again."
        onConfirm={confirmRetry}
        pending={retry.isPending}
        confirmLabel="Send Again"
        pendingLabel="Queuing..."
      />
    </Card>
  );
}
