import type { ReactNode } from 'react';

/**
 * Data on the page that could not be refreshed or loaded, said in one line above it, with
 * the way to ask again (`action`): the page stays usable with what it has.
 */
export function StaleNotice({
  title,
  children,
  action,
  role = 'alert',
}: {
  title: string;
  children: ReactNode;
  action: ReactNode;
  /** 'status' for standing news that should not interrupt a screen reader. */
  role?: 'alert' | 'status';
}) {
  return (
    <div
      role={role}
      className="mb-4 flex flex-wrap items-center justify-between gap-2 rounded-lg border border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-950"
    >
      <span>
        <span className="font-semibold">{title}</span> {children}
      </span>
      {action}
    </div>
  );
}
