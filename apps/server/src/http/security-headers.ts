import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * The Content Security Policy of every answer (the web app's pages above all):
 * - scripts only from our own files: the bundle has no inline script and loads nothing
 *   remote; workers (Monaco's editor worker, a bundled file; `blob:` for the dev server's
 *   and Monaco's fallback worker) the same;
 * - styles from our files and inline: antd's CSS-in-JS and Monaco insert `<style>` elements
 *   and style attributes at run time (antd has no nonce here), and index.html has one small
 *   `<style>`; styles cannot run code;
 * - images and fonts from our files, `data:` (the favicon, icons) and `blob:` (chart and
 *   screenshot exports);
 * - connections to our own origin only (`'self'` covers ws: and wss: to it);
 * - frames: our pages embed our own pages (/d child frames) and may be embedded by them and
 *   by the origins of FRAME_ANCESTORS (cspDirectives).
 */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  workerSrc: ["'self'", 'blob:'],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  frameSrc: ["'self'"],
  frameAncestors: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
};

/** The CSP with `frame-ancestors` widened to the origins of FRAME_ANCESTORS (`'self'` always). */
export function cspDirectives(frameAncestors: readonly string[]): typeof CSP_DIRECTIVES {
  return { ...CSP_DIRECTIVES, frameAncestors: ["'self'", ...frameAncestors] };
}

/**
 * Security headers with `helmet`: the CSP above, `X-Content-Type-Options: nosniff`,
 * `Referrer-Policy: same-origin`, `X-Frame-Options: SAMEORIGIN` (older browsers), COOP/CORP
 * same-origin and HSTS (browsers heed it over https only). With FRAME_ANCESTORS origins
 * there is no `X-Frame-Options`: it cannot name other origins, browsers that know CSP
 * ignore it next to `frame-ancestors`, and older ones would block the allowed embedders. The referrer policy must not be
 * `no-referrer`: with it a browser sends `Origin: null` on same-origin writes, which the
 * CSRF check (csrf.ts) refuses.
 *
 * Helmet runs once, on a stand-in answer, and its headers (all fixed: no nonce, nothing
 * read from the request) are then set on every answer from that list: helmet's chain of a
 * dozen middlewares ran for every request (the Fastify plugin even built it again each time,
 * about 3 % of a market order's time).
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  frameAncestors: readonly string[] = [],
): Promise<void> {
  const setHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(frameAncestors) },
    xFrameOptions: frameAncestors.length === 0 ? { action: 'sameorigin' } : false,
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: { maxAge: 180 * 24 * 3600, includeSubDomains: false },
  });
  const { set, removed } = await headersOf(setHeaders);
  app.addHook('onRequest', (_request, reply, done) => {
    const raw = reply.raw;
    for (const name of removed) raw.removeHeader(name);
    for (const [name, value] of set) raw.setHeader(name, value);
    done();
  });
}

/** The headers helmet's middleware sets (and removes) on an answer, in its order. */
function headersOf(
  middleware: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void,
): Promise<{ set: [string, string][]; removed: string[] }> {
  const set: [string, string][] = [];
  const removed: string[] = [];
  const res = {
    setHeader: (name: string, value: string) => {
      set.push([name, String(value)]);
      return res;
    },
    removeHeader: (name: string) => {
      removed.push(name);
    },
  };
  return new Promise((resolve, reject) => {
    middleware({} as IncomingMessage, res as unknown as ServerResponse, (error?: unknown) => {
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
      else resolve({ set, removed });
    });
  });
}
