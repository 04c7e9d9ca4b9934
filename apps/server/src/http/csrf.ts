import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isOwnOrigin } from './origin.ts';
import { AppError } from './errors.ts';

/** Code of a refused cross-site request (HTTP 403), in every family's shape. */
export const CODE_CROSS_SITE = 40300;
export const CROSS_SITE_MESSAGE =
  'Cross-site request refused: this call is accepted from this site’s own pages only';

export class CrossSiteRequestError extends AppError {
  constructor() {
    super(CODE_CROSS_SITE, CROSS_SITE_MESSAGE, 403);
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Whether a write may proceed by where it comes from:
 * - with `Origin`: it must be this site: the request's own origin, scheme and `Host` alike
 *   (`https://` of an `http://` host:port is another origin), or one of PUBLIC_ORIGIN;
 * - without `Origin` but with `Referer`: the referring page's origin must be;
 * - with neither: allowed. Browsers send `Origin` on every request that is not GET or
 *   HEAD (Fetch standard, also for same-origin fetches and form posts), so a write
 *   without it does not come from a browser page, and a client that is not a browser holds
 *   its own cookies: no other site can make it send the user's. Node's fetch (bench, tests,
 *   scripts) sends neither header.
 */
export function isSameSiteWrite(
  request: Pick<FastifyRequest, 'method' | 'headers' | 'protocol'>,
  publicOrigins: readonly string[],
): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const origin = single(request.headers.origin);
  if (origin !== undefined) return isOwnOrigin(origin, request, publicOrigins);
  const referer = single(request.headers.referer);
  if (referer === undefined) return true;
  let refererOrigin: string;
  try {
    refererOrigin = new URL(referer).origin;
  } catch {
    return false;
  }
  return isOwnOrigin(refererOrigin, request, publicOrigins);
}

/**
 * CSRF defence for every write (POST, PUT, PATCH, DELETE), cookie-authenticated or not
 * (the login too: another site must not log the visitor in to its own account). SameSite=Lax
 * does not separate the ports of one host, so the cookie alone proves nothing. Runs before
 * the body is read; the refusal is HTTP 403 code 40300 in the route family's shape.
 */
export function installCsrfGuard(app: FastifyInstance, publicOrigins: readonly string[]): void {
  // callback hooks here and in the other per-request hooks: no promise per request
  app.addHook('onRequest', (request, _reply, done) => {
    done(isSameSiteWrite(request, publicOrigins) ? undefined : new CrossSiteRequestError());
  });
}
