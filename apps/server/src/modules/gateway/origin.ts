import type { FastifyRequest } from 'fastify';

/**
 * Whether a WebSocket upgrade may proceed by its `Origin`: no header (not a browser: browsers
 * always send one on a WebSocket), the page's own origin (the `Origin` host is the request's
 * `Host`), or one of the configured public origins (PUBLIC_ORIGIN, behind a proxy that
 * rewrites `Host`). Any other origin is another site's page using the visitor's cookie.
 */
export function isAllowedOrigin(
  request: Pick<FastifyRequest, 'headers'>,
  publicOrigins: readonly string[],
): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return isOwnOrigin(origin, request.headers.host, publicOrigins);
}

/**
 * Whether `origin` (an `Origin` header, or the origin of a `Referer`) is this site: its host
 * is the request's `Host`, or it is one of the configured public origins.
 */
export function isOwnOrigin(
  origin: string,
  hostHeader: string | undefined,
  publicOrigins: readonly string[],
): boolean {
  if (publicOrigins.includes(origin)) return true;
  let host: string;
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    host = url.host;
  } catch {
    return false; // "null" (sandboxed frames, file://) and garbage
  }
  return host !== '' && host === hostHeader?.toLowerCase();
}

/** A public origin setting (`https://trade.example.com`): its normalized origin, or null. */
export function normalizeOrigin(text: string): string | null {
  try {
    const url = new URL(text.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.pathname !== '/' || url.search !== '' || url.hash !== '') return null;
    return url.origin;
  } catch {
    return null;
  }
}
