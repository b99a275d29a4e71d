// Runs in <head>, before the body is parsed (a file, not inline, so CSP script-src 'self'
// allows it). The server sends signed-out HTML (the prerendered landing page); a visitor with
// a stored session must not glimpse it while the app starts and restores the session (the
// page shows a loader instead).
//
// That visitor's app will need the signed-in code, the session and the screen's first data:
// asking for them now, beside the main bundle, saves waiting for the main bundle to ask. The
// build fills in what to ask for (scripts/prerender.mjs, from the route table); the answers
// wait in memory for lib/early-requests.ts to take over.
// In a function of its own: nothing of it, the token least of all, stays on `window` but the
// one object the app takes over and deletes (lib/early-requests.ts).
(function () {
  var signedInChunks = /* signed-in chunks */ [];
  var earlyRequests = /* early requests */ null;
  try {
    var token = localStorage.getItem('auth_token');
    if (token) {
      document.documentElement.setAttribute('data-session', '');
      for (var i = 0; i < signedInChunks.length; i++) {
        var link = document.createElement('link');
        link.rel = 'modulepreload';
        link.crossOrigin = '';
        link.href = signedInChunks[i];
        document.head.appendChild(link);
      }
      // The route table's spelling of this path (as in app/router.tsx).
      var path = location.pathname.toLowerCase().replace(/(.)\/+$/, '$1');
      var paths = earlyRequests ? earlyRequests.all.concat(earlyRequests.byPath[path] || []) : [];
      var responses = {};
      for (var j = 0; j < paths.length; j++) {
        responses[paths[j]] = fetch(earlyRequests.api + paths[j], {
          headers: { Accept: 'application/json', Authorization: 'Bearer ' + token },
        });
        // A failure is for the app to report when it takes the answer.
        responses[paths[j]].catch(function () {});
      }
      window.pawguardEarlyRequests = { token: token, startedAt: Date.now(), responses: responses };
    }
  } catch {
    // Storage can be unavailable (privacy modes): such a visitor has no stored session.
  }
})();
