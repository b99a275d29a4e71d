import '@/lib/zod-setup';
import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
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
// Decided by what session-hint.js did, not by reading the token again: a sign-out in another
// tab in between must not leave the page hidden behind a loader that never goes.
const hinted = document.documentElement.hasAttribute('data-session');
const token = authToken.get();
if (root.hasAttribute('data-prerendered') && !hinted) {
  hydrateRoot(root, app);
} else {
  if (token) preloadSignedIn(window.location.pathname, token);
  root.replaceChildren();
  // The first render (the session loader) at once, and only then the HTML's own loader goes:
  // no frame without either.
  const reactRoot = createRoot(root);
  flushSync(() => reactRoot.render(app));
  document.documentElement.removeAttribute('data-session');
  document.getElementById('session-loader')?.remove();
}
