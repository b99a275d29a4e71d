import type { ReactNode } from 'react';
import { Construction } from 'lucide-react';
import { PageHeader } from '@/components/page-header';
import { Card, CardContent } from '@/components/ui/card';

type PagePlaceholderProps = { title: string; description: string; children?: ReactNode };

/** An honest stand-in for a screen that is not built yet: its title, its purpose, no fake data. */
export function PagePlaceholder({ title, description, children }: PagePlaceholderProps) {
  return (
    <section aria-labelledby="page-title">
      <PageHeader title={title} description={description} />
      <Card>
        <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
          <Construction className="size-10 text-primary" aria-hidden="true" />
          <p className="font-semibold">Coming soon</p>
          <p className="max-w-md text-sm text-muted-foreground">
            This screen is being built. Everything else in PawGuard keeps working in the meantime.
          </p>
          {children}
        </CardContent>
      </Card>
    </section>
  );
}
