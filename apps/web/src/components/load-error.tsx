import { RefreshCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';

/** A screen's data could not be loaded: what failed, the reason, and Try Again. */
export function LoadError({
  title,
  message,
  onRetry,
  heading = false,
}: {
  title: string;
  message: string | undefined;
  onRetry: () => void;
  /** Make the title a heading (h2) when it stands in for the screen's content. */
  heading?: boolean;
}) {
  const Title = heading ? 'h2' : 'p';
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
        <Title className={heading ? 'text-lg font-semibold' : 'font-semibold'}>{title}</Title>
        {message ? <p className="text-sm text-muted-foreground">{message}</p> : null}
        <Button variant="outline" onClick={onRetry}>
          <RefreshCw aria-hidden="true" />
          Try Again
        </Button>
      </CardContent>
    </Card>
  );
}
