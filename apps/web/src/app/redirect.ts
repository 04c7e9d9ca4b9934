export type LocationParts = { pathname: string; search: string; hash: string };

const MOBILE_UA = /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobile/i;

/** A phone or tablet browser, judged by its user agent. */
export function isMobileUserAgent(userAgent: string): boolean {
  return MOBILE_UA.test(userAgent);
}

/**
 * Where '/' sends a visitor (spec section 2, Routes): a path of /chart or a hash starting
 * with #/chart goes to /chart keeping the query (old hash links carry it inside the hash);
 * otherwise phones go to /phone and everything else to /desktop, keeping query and hash.
 */
export function rootRedirectTarget(location: LocationParts, userAgent: string): string {
  const { pathname, search, hash } = location;
  if (pathname === '/chart' || hash.startsWith('#/chart')) {
    const hashQuery = hash.includes('?') ? hash.slice(hash.indexOf('?')) : '';
    return `/chart${search || hashQuery}`;
  }
  const base = isMobileUserAgent(userAgent) ? '/phone' : '/desktop';
  return `${base}${search}${hash}`;
}
