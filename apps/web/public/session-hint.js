// Runs in <head>, before the body is parsed (a file, not inline, so CSP script-src 'self'
// allows it). The server sends signed-out HTML (the prerendered landing page); a visitor with
// a stored session must not glimpse it while the app starts and restores the session.
try {
  if (localStorage.getItem('auth_token')) document.documentElement.setAttribute('data-session', '');
} catch {
  // Storage can be unavailable (privacy modes): such a visitor has no stored session.
}
