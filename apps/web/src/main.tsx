import '@/lib/zod-setup';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { preloadSignedIn } from '@/app/router';
import { authToken } from '@/lib/auth-token';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

// The server sent this page prerendered (the landing page, /emergency) as a signed-out
// visitor sees it: the app takes that HTML over. A visitor with a stored session never saw
// it (public/session-hint.js hid it before the first paint); their app starts afresh.
if (root.hasAttribute('data-prerendered') && !authToken.get()) {
  hydrateRoot(root, app);
} else {
  if (authToken.get()) preloadSignedIn(window.location.pathname);
  root.replaceChildren();
  document.documentElement.removeAttribute('data-session');
  createRoot(root).render(app);
}
