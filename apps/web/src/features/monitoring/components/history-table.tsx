import { useId, useState } from 'react';
import { formatOneDecimal, type History } from '@pawguard/shared';
import { Button } from '@/components/ui/button';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { useDisplayUnits } from '@/lib/display-units';
import { bucketLength, formatBucketTime } from './history-series';

/** The charts' numbers as a table, on request: for screen readers, keyboards and the curious. */
export function HistoryTable({ history }: { history: History }) {
  const [open, setOpen] = useState(false);
  const { temperature, timeZone } = useDisplayUnits();
  const tableId = useId();
  const rows = history.buckets.filter((b) => b.count > 0).reverse();
  return (
    <div className="grid gap-3">
      <div>
        <Button
          variant="outline"
          size="sm"
          aria-expanded={open}
          aria-controls={open ? tableId : undefined}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Hide table' : 'Show as table'}
        </Button>
      </div>
      {open ? (
        <div id={tableId}>
          <Table scrollLabel="Readings table">
            <caption className="sr-only">
              Averages per {bucketLength(history.bucket_seconds)} period, newest first
            </caption>
            <TableHeader>
              <TableRow>
                <TableHead>Time</TableHead>
                <TableHead>Temperature</TableHead>
                <TableHead>Humidity</TableHead>
                <TableHead>Heart rate</TableHead>
                <TableHead className="text-right">Readings</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((bucket) => (
                <TableRow key={bucket.t}>
                  <TableCell className="whitespace-nowrap">
                    {formatBucketTime(
                      Date.parse(bucket.t),
                      history.range,
                      history.bucket_seconds,
                      timeZone,
                    )}
                  </TableCell>
                  <TableCell className="whitespace-nowrap tabular-nums">
                    {bucket.temperature ? temperature(bucket.temperature.avg) : '—'}
                  </TableCell>
                  <TableCell className="tabular-nums">
                    {bucket.humidity ? `${formatOneDecimal(bucket.humidity.avg)}%` : '—'}
                  </TableCell>
                  <TableCell className="tabular-nums">
                    {bucket.heart_rate ? `${Math.round(bucket.heart_rate.avg)} bpm` : '—'}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{bucket.count}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      ) : null}
    </div>
  );
}
