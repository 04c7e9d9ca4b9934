import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

const NOT_BUILT_TEXT =
  'Chart Terminal: the web app is not built yet.\n' +
  'Run `npm start` from the repository root: it builds apps/web and then starts the server.\n';

/**
 * Serves the built web app. Vite's hashed files under /assets are cached for good;
 * everything else (index.html above all) is revalidated on every load. The build writes
 * `.br`/`.gz` copies of the text files, sent to browsers that accept them.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: true,
    dotfiles: 'deny',
    cacheControl: false,
    preCompressed: true,
    // A missing dist is explained by sendWebApp on a page load rather than warned at start.
    suppressWarning: true,
    setHeaders: (reply, filePath) => {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}

/**
 * The SPA fallback for a GET of a client-side route: index.html, so react-router can take it.
 * A missing file with an extension (a stale asset) stays a 404; an unbuilt app gets a hint.
 */
export function sendWebApp(reply: FastifyReply, url: string, webDist: string): FastifyReply {
  const pathname = url.split('?')[0] ?? '/';
  if (path.posix.extname(pathname) !== '') {
    return reply.status(404).type('text/plain; charset=utf-8').send('Not found\n');
  }
  if (!fs.existsSync(path.join(webDist, 'index.html'))) {
    return reply.status(503).type('text/plain; charset=utf-8').send(NOT_BUILT_TEXT);
  }
  return reply
    .header('cache-control', 'no-cache')
    .type('text/html; charset=utf-8')
    .sendFile('index.html');
}
