import { useState } from 'react';
import { toast } from 'sonner';
import { ClipboardList, Download } from 'lucide-react';
import type { WaitlistEntry } from '@pawguard/shared';
import { Button } from '@/components/ui/button';
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
import { useExportWaitlistCsv } from '../api/export-waitlist-csv';
import { useWaitlistEntries, WAITLIST_PAGE_SIZE } from '../api/get-waitlist-entries';

const COLUMNS = ['Name', 'Email', 'Phone', 'Pet', 'Breed', 'Joined'] as const;

/** The admin dashboard's view of who joined the waitlist, with the CSV export. */
export function WaitlistAdminSection() {
  const [page, setPage] = useState(0);
  const entries = useWaitlistEntries(page);
  const exportCsv = useExportWaitlistCsv();
  const count = entries.data?.total;
  const pages = count === undefined ? 1 : Math.max(1, Math.ceil(count / WAITLIST_PAGE_SIZE));

  const onExport = () =>
    exportCsv.mutate(undefined, {
      onError: (error) =>
        toast.error('Failed to export waitlist', {
          id: 'export-waitlist',
          description: error.message,
        }),
    });

  return (
    <section aria-labelledby="waitlist-title" className="mt-8">
      <Card>
        <CardHeader className="gap-4 px-4 sm:flex-row sm:items-start sm:justify-between sm:px-6">
          <div className="grid gap-1.5">
            <CardTitle as="h2" id="waitlist-title">
              Waitlist
            </CardTitle>
            <CardDescription aria-live="polite">
              {count === undefined
                ? 'People waiting for PawGuard to launch.'
                : `${count} ${count === 1 ? 'person has' : 'people have'} joined the waitlist.`}
            </CardDescription>
          </div>
          <Button
            variant="outline"
            onClick={onExport}
            disabled={exportCsv.isPending || !count}
            className="self-start"
          >
            <Download aria-hidden="true" />
            {exportCsv.isPending ? 'Exporting...' : 'Export CSV'}
          </Button>
        </CardHeader>
        <CardContent className="px-4 sm:px-6">
          <div className="rounded-lg border">
            <Table scrollLabel="Waitlist entries" stacked>
              <TableHeader>
                <TableRow className="hover:bg-transparent">
                  {COLUMNS.map((column) => (
                    <TableHead key={column}>{column}</TableHead>
                  ))}
                </TableRow>
              </TableHeader>
              <TableBody>
                {entries.isPending ? (
                  Array.from({ length: 3 }, (_, i) => (
                    <TableRow key={i}>
                      <TableCell colSpan={COLUMNS.length}>
                        <Skeleton className="h-6 w-full" />
                      </TableCell>
                    </TableRow>
                  ))
                ) : entries.isError ? (
                  <TableRow className="hover:bg-transparent">
                    <TableCell colSpan={COLUMNS.length} className="py-10 text-center">
                      <p className="font-medium">The waitlist could not be loaded.</p>
                      <p className="mt-1 text-sm text-muted-foreground">{entries.error.message}</p>
                      <Button
                        variant="outline"
                        size="sm"
                        className="mt-3"
                        onClick={() => void entries.refetch()}
                      >
                        Try Again
                      </Button>
                    </TableCell>
                  </TableRow>
                ) : entries.data.entries.length === 0 ? (
                  <TableRow className="hover:bg-transparent">
                    <TableCell
                      colSpan={COLUMNS.length}
                      className="py-10 text-center text-muted-foreground"
                    >
                      <ClipboardList className="mx-auto mb-2 size-8" aria-hidden="true" />
                      No one has joined the waitlist yet.
                    </TableCell>
                  </TableRow>
                ) : (
                  entries.data.entries.map((entry) => <EntryRow key={entry.id} entry={entry} />)
                )}
              </TableBody>
            </Table>
          </div>
          {pages > 1 && (
            <nav
              aria-label="Waitlist pages"
              className="mt-4 flex items-center justify-between gap-2 text-sm"
            >
              <Button
                variant="outline"
                size="sm"
                onClick={() => setPage((p) => p - 1)}
                disabled={page === 0}
              >
                Previous
              </Button>
              <span aria-live="polite">
                Page {page + 1} of {pages}
              </span>
              <Button
                variant="outline"
                size="sm"
                onClick={() => setPage((p) => p + 1)}
                disabled={page >= pages - 1 || entries.isPlaceholderData}
              >
                Next
              </Button>
            </nav>
          )}
        </CardContent>
      </Card>
    </section>
  );
}

/** Every value is rendered as text: entries come from anonymous visitors. */
function EntryRow({ entry }: { entry: WaitlistEntry }) {
  const { date } = useDisplayUnits();
  return (
    <TableRow>
      <TableCell className="max-w-[12rem] font-medium max-md:text-base" title={entry.name}>
        <span className="truncate">{entry.name}</span>
      </TableCell>
      <TableCell data-label="Email" className="max-w-[16rem]" title={entry.email}>
        <span className="truncate">{entry.email}</span>
      </TableCell>
      <TableCell data-label="Phone" className="whitespace-nowrap">
        {entry.phone}
      </TableCell>
      <TableCell data-label="Pet" className="max-w-[10rem]" title={entry.petName}>
        <span className="truncate">{entry.petName}</span>
      </TableCell>
      <TableCell data-label="Breed" className="whitespace-nowrap">
        {entry.petBreed}
      </TableCell>
      <TableCell data-label="Joined" className="whitespace-nowrap">
        {date(entry.created_at)}
      </TableCell>
    </TableRow>
  );
}
