import type { FastifyRequest } from 'fastify';

/**
 * Whether a WebSocket upgrade may proceed by its `Origin`: no header (not a browser: browsers
 * always send one on a WebSocket), the page's own origin (the `Origin` host is the request's
 * `Host`), or one of the configured public origins (PUBLIC_ORIGIN, behind a proxy that
 * rewrites `Host`). Any other origin is another site's page using the visitor's cookie.
 */
export function isAllowedOrigin(
  request: Pick<FastifyRequest, 'headers' | 'protocol'>,
  publicOrigins: readonly string[],
): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return isOwnOrigin(origin, request, publicOrigins);
}

/**
 * The request's own origin: its scheme (`request.protocol`: the connection's, or a
 * `TRUST_PROXY` proxy's `X-Forwarded-Proto`) and its `Host`; null without a usable `Host`.
 */
export function requestOrigin(
  request: Pick<FastifyRequest, 'headers' | 'protocol'>,
): string | null {
  const host = request.headers.host;
  if (host === undefined || host === '') return null;
  try {
    const url = new URL(`${request.protocol}://${host}`);
    // a Host with a path, a user or a query is not a host
    const bare = url.pathname === '/' && url.search === '' && url.hash === '';
    return bare && url.username === '' && url.password === '' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * Whether `origin` (an `Origin` header, or the origin of a `Referer`) is this site: the
 * whole origin (scheme, host and port) is the request's own (`requestOrigin`), or it is one
 * of the configured public origins. `https://` of the page's `http://` host and port is
 * another origin, and so is another port.
 */
export function isOwnOrigin(
  origin: string,
  request: Pick<FastifyRequest, 'headers' | 'protocol'>,
  publicOrigins: readonly string[],
): boolean {
  if (publicOrigins.includes(origin)) return true;
  let normalized: string;
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    normalized = url.origin;
  } catch {
    return false; // "null" (sandboxed frames, file://) and garbage
  }
  const own = requestOrigin(request);
  return own !== null && normalized === own;
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
