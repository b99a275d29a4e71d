import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { Home } from 'lucide-react';
import { Logo } from '@/components/logo';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useDocumentTitle } from '@/lib/use-document-title';
import { MAIN_ID } from '@/lib/main-region';

export default function NotFoundRoute() {
  const { pathname } = useLocation();
  useDocumentTitle('Page not found');
  useEffect(() => {
    console.warn('404: no page at', pathname);
  }, [pathname]);

  return (
    <main
      id={MAIN_ID}
      className="flex min-h-dvh flex-col items-center justify-center gap-6 px-4 text-center"
    >
      <Logo />
      <p className="text-7xl font-extrabold text-primary" aria-hidden="true">
        404
      </p>
      <h1 className="text-2xl font-bold tracking-tight">Oops! Page not found</h1>
      <p className="max-w-md text-muted-foreground">
        The page you are looking for does not exist or has moved.
      </p>
      <Button asChild>
        <Link to={paths.home}>
          <Home aria-hidden="true" />
          Return to Home
        </Link>
      </Button>
    </main>
  );
}
