import { Spinner } from '@/components/ui/spinner';

export function PageLoader({
  label = 'Loading...',
  fullScreen = false,
}: {
  label?: string;
  fullScreen?: boolean;
}) {
  return (
    <div
      className={
        fullScreen ? 'flex min-h-dvh items-center justify-center' : 'flex justify-center py-16'
      }
    >
      <Spinner label={label} />
    </div>
  );
}

/** While a stored session is restored (also written into the HTML at build time). */
export function SessionLoader() {
  return <PageLoader label="Loading your session..." fullScreen />;
}
