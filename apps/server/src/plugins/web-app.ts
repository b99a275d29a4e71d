import fs from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import type { FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { MAX_PARAM_LENGTH, PART_TOO_LONG } from '../server-options.js';

/**
 * The built web app's pages. The build prerenders some screens (the landing page, /emergency)
 * and lists in pages.json which HTML file answers which path; any other path gets the plain
 * shell, so a visitor never glimpses a page other than the one the app will show.
 */
export function loadWebPages(dist: string): { pageFor: (url: string) => string } | undefined {
  if (!fs.existsSync(path.join(dist, 'index.html'))) return undefined;
  let manifest: { pages: Record<string, string>; fallback: string } = {
    pages: {},
    fallback: 'index.html',
  };
  const manifestFile = path.join(dist, 'pages.json');
  if (fs.existsSync(manifestFile)) manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  return {
    pageFor(url) {
      // React Router matches paths case-insensitively and ignores a trailing slash.
      const pathname = url
        .split(/[?#]/)[0]!
        .toLowerCase()
        .replace(/(.)\/+$/, '$1');
      return manifest.pages[pathname] ?? manifest.fallback;
    },
  };
}

export interface WebAppOptions {
  /** The web app's build (apps/web/dist); served only once it holds index.html. */
  dist: string;
}

/**
 * The built single-page app and its files, when it has been built, and the answer to every
 * request no route took: a screen of the app gets its page, anything else the API's `{ error }`
 * 404. Registered after the routes and the rate limiter.
 */
export const webApp = fp<WebAppOptions>(
  async (app, { dist }) => {
    const web = loadWebPages(dist);
    const sendPage = (reply: FastifyReply, url: string) =>
      reply.header('cache-control', 'no-cache').sendFile(web!.pageFor(url), dist);
    if (web) {
      await app.register(fastifyStatic, {
        root: dist,
        // Looked up per request (not listed once at start), so a rebuild never strands new chunks.
        wildcard: true,
        index: false,
        // The build writes .br and .gz beside each text file; the one the browser accepts is sent.
        preCompressed: true,
        setHeaders: (res, filePath) => {
          // Hashed asset names change with content, so they may be cached for a year.
          res.header(
            'cache-control',
            filePath.includes(`${path.sep}assets${path.sep}`)
              ? 'public, max-age=31536000, immutable'
              : 'no-cache',
          );
        },
      });
      // The app's own page, not an API operation: kept out of the OpenAPI document.
      app.get('/', { schema: { hide: true } }, (request, reply) => sendPage(reply, request.url));
    }
    // Rate-limited like every route, so probing unknown paths costs the same as calling real ones.
    app.setNotFoundHandler({ preHandler: app.rateLimit() }, (request, reply) => {
      const pathOnly = request.url.split('?')[0]!;
      // A screen of the single-page app: any other GET (or HEAD, as link checkers and uptime
      // monitors ask) whose last segment is not a file name.
      const isScreen =
        (request.method === 'GET' || request.method === 'HEAD') &&
        !pathOnly.startsWith('/api') &&
        !/\.[A-Za-z0-9]+$/.test(pathOnly);
      if (web && isScreen) return sendPage(reply, request.url);
      // What the router refuses as too long when no route matches it otherwise (a GET that the
      // web app's catch-all took): refused the same way.
      if (
        pathOnly.startsWith('/api/') &&
        pathOnly.split('/').some((s) => s.length > MAX_PARAM_LENGTH)
      )
        return reply.code(400).send({ error: PART_TOO_LONG });
      // The path is echoed only in part: a long one could carry something that belongs in no answer.
      return reply.code(404).send({
        error: `No route for ${request.method} ${pathOnly.length > 80 ? `${pathOnly.slice(0, 80)}…` : pathOnly}`,
      });
    });
  },
  { name: 'pawguard-web-app', fastify: '5.x', dependencies: ['@fastify/rate-limit'] },
);
