import type { FastifyReply, FastifyRequest } from 'fastify';
import { LOGIN_PATH } from '../../http/families.ts';

/** docs/api.md: the session cookie. */
export const SESSION_COOKIE = 'ct_sid';

const COOKIE_OPTIONS = { httpOnly: true, sameSite: 'lax', path: '/' } as const;

/**
 * `Secure` when the page is served over https: the connection's own TLS, or a trusted
 * proxy's `X-Forwarded-Proto: https` (TRUST_PROXY; without it the header is ignored). Over
 * plain http (localhost) a Secure cookie would not be sent back, so it stays off there.
 */
function secure(reply: FastifyReply): boolean {
  return reply.request.protocol === 'https';
}

export function setSessionCookie(reply: FastifyReply, token: string, ttlSeconds: number): void {
  void reply.setCookie(SESSION_COOKIE, token, {
    ...COOKIE_OPTIONS,
    secure: secure(reply),
    maxAge: ttlSeconds,
  });
}

/**
 * The device cookie (docs/api.md, Login limits): a random value naming this browser, sent
 * back to the login only; a device that logged in to an account before is judged by its
 * own failures there, not by other devices' or addresses'.
 */
export const DEVICE_COOKIE = 'ct_dev';

export function setDeviceCookie(reply: FastifyReply, token: string, maxAgeSeconds: number): void {
  void reply.setCookie(DEVICE_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    path: LOGIN_PATH,
    secure: secure(reply),
    maxAge: maxAgeSeconds,
  });
}

export function deviceCookieOf(request: FastifyRequest): string | undefined {
  return request.cookies[DEVICE_COOKIE];
}

export function clearSessionCookie(reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, { ...COOKIE_OPTIONS, secure: secure(reply) });
}

export function sessionCookieOf(request: FastifyRequest): string | undefined {
  return request.cookies[SESSION_COOKIE];
}
