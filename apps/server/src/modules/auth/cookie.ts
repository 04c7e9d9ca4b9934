import type { FastifyReply, FastifyRequest } from 'fastify';

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

export function clearSessionCookie(reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, { ...COOKIE_OPTIONS, secure: secure(reply) });
}

export function sessionCookieOf(request: FastifyRequest): string | undefined {
  return request.cookies[SESSION_COOKIE];
}
