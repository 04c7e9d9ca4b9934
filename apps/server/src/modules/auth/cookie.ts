import type { FastifyReply, FastifyRequest } from 'fastify';

/** docs/api.md: the session cookie. */
export const SESSION_COOKIE = 'ct_sid';

// Secure stays off: the product is served over plain http on localhost.
const COOKIE_OPTIONS = { httpOnly: true, sameSite: 'lax', path: '/', secure: false } as const;

export function setSessionCookie(reply: FastifyReply, token: string, ttlSeconds: number): void {
  void reply.setCookie(SESSION_COOKIE, token, { ...COOKIE_OPTIONS, maxAge: ttlSeconds });
}

export function clearSessionCookie(reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, COOKIE_OPTIONS);
}

export function sessionCookieOf(request: FastifyRequest): string | undefined {
  return request.cookies[SESSION_COOKIE];
}
