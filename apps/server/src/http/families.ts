/**
 * Each URL belongs to a family with its own answer shape (docs/api.md, Response shapes):
 * - `login`: `{ status, msg, data: [] }` on failure;
 * - `envelope`: `/user/...` and `/trading/...`, `{ code, msg, data: null }`;
 * - `api`: `/api/...`, FastAPI-style `{ code, msg, detail }`;
 * - `app`: everything else (the web app's own paths, live sockets).
 */
export type Family = 'login' | 'envelope' | 'api' | 'app';

export const LOGIN_PATH = '/user/api/v1/account/login';

/** Path prefixes that belong to the server, never to the web app's client-side routes. */
const SERVER_PREFIXES = ['/api', '/user', '/trading', '/connection', '/ws'];

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

function under(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

export function familyOf(url: string): Family {
  const path = pathOf(url);
  if (path === LOGIN_PATH) return 'login';
  if (under(path, '/api')) return 'api';
  if (under(path, '/user') || under(path, '/trading')) return 'envelope';
  return 'app';
}

/** True for paths the web app's client-side router may own (SPA fallback). */
export function isWebAppPath(url: string): boolean {
  const path = pathOf(url);
  return !SERVER_PREFIXES.some((prefix) => under(path, prefix));
}

/** The failure body of a family. `app` paths use the envelope shape. */
export function failureBody(family: Family, code: number, msg: string): Record<string, unknown> {
  switch (family) {
    case 'login':
      return { status: code, msg, data: [] };
    case 'api':
      return { code, msg, detail: msg };
    case 'envelope':
    case 'app':
      return { code, msg, data: null };
  }
}
