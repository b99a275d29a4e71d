import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

type TableProps = ComponentProps<'table'> & {
  /** Names the scroll area, which becomes focusable so a keyboard can scroll a wide table. */
  scrollLabel?: string;
  /**
   * Below the md breakpoint, each row becomes a card and each cell a line labelled by its
   * `data-label`, so nothing hides in a sideways scroller on a phone.
   */
  stacked?: boolean;
};

const STACKED = cn(
  'max-md:block max-md:[&_thead]:sr-only max-md:[&_tbody]:grid max-md:[&_tbody]:grid-cols-[minmax(0,1fr)] max-md:[&_tbody]:gap-3 max-md:[&_tbody]:p-3',
  'max-md:[&_tr]:block max-md:[&_tr]:rounded-lg max-md:[&_tr]:border max-md:[&_tr]:bg-card max-md:[&_tr]:p-3',
  'max-md:[&_td]:flex max-md:[&_td]:min-w-0 max-md:[&_td]:max-w-none max-md:[&_td]:items-center max-md:[&_td]:justify-between max-md:[&_td]:gap-4 max-md:[&_td]:px-0 max-md:[&_td]:py-1.5 max-md:[&_td]:text-left',
  'max-md:[&_td[data-label]]:before:shrink-0 max-md:[&_td[data-label]]:before:font-medium max-md:[&_td[data-label]]:before:text-muted-foreground max-md:[&_td[data-label]]:before:content-[attr(data-label)]',
);

export function Table({ className, scrollLabel, stacked = false, ...props }: TableProps) {
  return (
    <div
      className={cn(
        'relative w-full focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        stacked ? 'md:overflow-x-auto' : 'overflow-x-auto',
      )}
      {...(scrollLabel ? { role: 'region', 'aria-label': scrollLabel, tabIndex: 0 } : {})}
    >
      <table
        className={cn(
          'w-full caption-bottom text-sm',
          // The last row needs no divider under it; stacked below md, each row is a card
          // with a border all round, the last one too.
          stacked
            ? cn(STACKED, 'md:[&_tbody_tr:last-child]:border-0')
            : '[&_tbody_tr:last-child]:border-0',
          className,
        )}
        {...props}
      />
    </div>
  );
}

export function TableHeader({ className, ...props }: ComponentProps<'thead'>) {
  return <thead className={cn('[&_tr]:border-b', className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<'tbody'>) {
  return <tbody className={className} {...props} />;
}

export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
  return (
    <tr className={cn('border-b transition-colors hover:bg-muted/50', className)} {...props} />
  );
}

export function TableHead({ className, ...props }: ComponentProps<'th'>) {
  return (
    <th
      scope="col"
      className={cn(
        'h-10 whitespace-nowrap px-3 text-left align-middle font-medium text-muted-foreground',
        className,
      )}
      {...props}
    />
  );
}

export function TableCell({ className, ...props }: ComponentProps<'td'>) {
  return <td className={cn('px-3 py-3 align-middle', className)} {...props} />;
}

export function TableCaption({ className, ...props }: ComponentProps<'caption'>) {
  return <caption className={cn('mt-4 text-sm text-muted-foreground', className)} {...props} />;
}
