import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Toaster } from '@/components/ui/sonner';

/**
 * Loaded after first paint. Toasts raised before it mounts would be lost, so the one toast
 * a landing visitor can get — 'Email confirmed' from the link in the sign-up mail, which
 * lands on /?confirmed=1 (DESIGN §5) — is raised from here, after the Toaster is listening.
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
    if (params.get('confirmed') !== '1') return;
    toast.success('Email confirmed', { id: 'email-confirmed' });
    params.delete('confirmed');
    const search = params.toString();
    void navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
      { replace: true },
    );
  }, [location, navigate]);
}
