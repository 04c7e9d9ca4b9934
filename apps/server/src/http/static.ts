import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

const NOT_BUILT_TEXT =
  'Chart Terminal: the web app is not built yet.\n' +
  'Run `npm start` from the repository root: it builds apps/web and then starts the server.\n';

/** The built web app and what its pages are told when served. */
export type WebApp = {
  /** Absolute path of the build (index.html and assets). */
  dist: string;
  /** FRAME_ANCESTORS: the origins besides ours that may frame the pages (empty: none). */
  frameAncestors: readonly string[];
};

/**
 * The `<meta>` that tells the web app which other origins may frame it (its frame protocol
 * answers their messages, realtime/frameBridge.ts): the CSP forbids inline scripts, so the
 * list travels as data in the page.
 */
export const FRAME_ANCESTORS_META = 'ct-frame-ancestors';

function escapeAttribute(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/** index.html with the FRAME_ANCESTORS `<meta>` first in its head (exported for tests). */
export function withFrameAncestors(html: string, frameAncestors: readonly string[]): string {
  if (frameAncestors.length === 0) return html;
  const meta = `<meta name="${FRAME_ANCESTORS_META}" content="${escapeAttribute(frameAncestors.join(' '))}" />`;
  const head = /<head[^>]*>/i.exec(html);
  if (!head) return `${meta}${html}`;
  const at = head.index + head[0].length;
  return `${html.slice(0, at)}\n    ${meta}${html.slice(at)}`;
}

/**
 * Serves the built web app. Vite's hashed files under /assets are cached for good;
 * everything else is revalidated on every load. The build writes `.br`/`.gz` copies of the
 * text files, sent to browsers that accept them. index.html itself (`/`, `/index.html` and
 * every client-side route) is answered by sendWebApp, which adds what the page must know.
 */
export async function registerWebApp(app: FastifyInstance, webApp: WebApp): Promise<void> {
  await app.register(fastifyStatic, {
    root: webApp.dist,
    wildcard: true,
    dotfiles: 'deny',
    cacheControl: false,
    preCompressed: true,
    // the page itself is sendWebApp's (through the not-found handler), with what it must know
    allowedPath: (pathname) => pathname !== '/' && pathname !== '/index.html',
    // A missing dist is explained by sendWebApp on a page load rather than warned at start.
    suppressWarning: true,
    setHeaders: (reply, filePath) => {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}

/**
 * index.html for a GET of a page (`/`, `/index.html` or a client-side route, so
 * react-router can take it). A missing file with an extension (a stale asset) stays a 404;
 * an unbuilt app gets a hint. With FRAME_ANCESTORS the page carries their `<meta>`.
 */
export async function sendWebApp(
  reply: FastifyReply,
  url: string,
  webApp: WebApp,
): Promise<FastifyReply> {
  const pathname = url.split('?')[0] ?? '/';
  if (path.posix.extname(pathname) !== '' && pathname !== '/index.html') {
    return reply.status(404).type('text/plain; charset=utf-8').send('Not found\n');
  }
  let html: string;
  try {
    html = await fs.promises.readFile(path.join(webApp.dist, 'index.html'), 'utf8');
  } catch {
    return reply.status(503).type('text/plain; charset=utf-8').send(NOT_BUILT_TEXT);
  }
  return reply
    .header('cache-control', 'no-cache')
    .type('text/html; charset=utf-8')
    .send(withFrameAncestors(html, webApp.frameAncestors));
}
