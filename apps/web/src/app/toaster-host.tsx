import { useEffect } from 'react';
import { createPortal } from 'react-dom';
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
  return createPortal(<Toaster />, toastLayer());
}

let layer: HTMLElement | undefined;

/**
 * Toasts live in a layer of their own at the end of the body, not inside the app. An open
 * dialog hides everything else from assistive technology (Radix sets aria-hidden on the rest
 * of the body) except live regions. The toaster's code arrives with the first tap, as the
 * waitlist dialog's does; a toaster that was not yet a live region when the dialog opened was
 * hidden with the app, so the dialog's own error toasts were never heard. The layer is marked
 * as a region from the start (`aria-live="off"`: it announces nothing itself; the toaster
 * inside is the polite live region), so a dialog never hides it.
 */
function toastLayer(): HTMLElement {
  if (!layer) {
    layer = document.createElement('div');
    layer.setAttribute('data-toast-layer', '');
    layer.setAttribute('aria-live', 'off');
    document.body.append(layer);
  }
  return layer;
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
