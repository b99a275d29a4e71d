import { describe, expect, it } from 'vitest';
import { isPagesManifest, isScreenPath, pageFileFor } from './pages';

const manifest = {
  pages: { '/': 'index.html', '/my-pets': 'index.html', '/emergency': 'emergency.html' },
  fallback: 'app.html',
};

describe('the page a screen’s path gets, as the server sends it', () => {
  it('is the prerendered page listed for the path, matched without case or trailing slash', () => {
    expect(pageFileFor(manifest, '/')).toBe('index.html');
    expect(pageFileFor(manifest, '/Emergency/')).toBe('emergency.html');
    expect(pageFileFor(manifest, '/my-pets')).toBe('index.html');
  });

  it('is the empty shell for every other path', () => {
    expect(pageFileFor(manifest, '/monitoring')).toBe('app.html');
    expect(pageFileFor(manifest, '/notifications')).toBe('app.html');
  });

  it('is never the API, its documentation or a file', () => {
    expect(isScreenPath('/monitoring')).toBe(true);
    expect(isScreenPath('/')).toBe(true);
    expect(isScreenPath('/api/docs')).toBe(false);
    expect(isScreenPath('/api/alerts')).toBe(false);
    expect(isScreenPath('/sw.js')).toBe(false);
    expect(isScreenPath('/icons/pwa-192.png')).toBe(false);
  });

  it('takes only a well-formed pages.json', () => {
    expect(isPagesManifest(manifest)).toBe(true);
    expect(isPagesManifest({ pages: { '/': 1 }, fallback: 'app.html' })).toBe(false);
    expect(isPagesManifest({ pages: {} })).toBe(false);
    expect(isPagesManifest(null)).toBe(false);
  });
});
