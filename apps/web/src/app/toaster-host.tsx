import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Toaster } from '@/components/ui/sonner';

/**
 * Loaded after first paint. Toasts raised before it mounts would be lost, so the toasts a
 * landing visitor can get from the link in the sign-up mail — 'Email confirmed' on
 * /?confirmed=1 (DESIGN §5), or why not on /?confirmed=0 — are raised from here, after the
 * Toaster is listening.
 */
export default function ToasterHost() {
  useEmailConfirmedToast();
  return <Toaster />;
}

function useEmailConfirmedToast() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const confirmed = params.get('confirmed');
    if (confirmed === '1') {
      toast.success('Email confirmed', { id: 'email-confirmed' });
    } else if (confirmed === '0') {
      // The server sends an unknown, expired or already used link here: say so, not nothing.
      toast.error('Email not confirmed', {
        id: 'email-not-confirmed',
        description: 'This confirmation link is invalid or has already been used.',
      });
    } else {
      return;
    }
    params.delete('confirmed');
    const search = params.toString();
    void navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
      { replace: true },
    );
  }, [location, navigate]);
}
