import type { TraderCredentials } from '@ct/domain';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { TraderRow } from '../../db/schema.ts';
import { AuthFailedError } from '../../http/errors.ts';
import { sessionCookieOf } from './cookie.ts';
import type { AuthService, SessionAuth } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireSession`; null on routes without it. */
    auth: SessionAuth | null;
  }
  interface FastifyInstance {
    /** preHandler: the request must carry a live session (and matching user headers). */
    requireSession: preHandlerAsyncHookHandler;
    /** The request's session when it has a valid one, else null (for public calls). */
    sessionIfAny(request: FastifyRequest): Promise<SessionAuth | null>;
    /** For calls on a trading account: `uuid` + `token` must be this session's. */
    requireTrader(request: FastifyRequest, credentials: TraderCredentials): Promise<TraderRow>;
  }
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** The session of a request that passed `requireSession`. */
export function sessionOf(request: FastifyRequest): SessionAuth {
  if (!request.auth) throw new AuthFailedError();
  return request.auth;
}

/** Decorates the root instance, so every module's routes can use the guard. */
export function installGuard(app: FastifyInstance, auth: AuthService): void {
  app.decorateRequest('auth', null);

  const requireSession: preHandlerAsyncHookHandler = async (request) => {
    request.auth = await auth.checkSession({
      sessionToken: sessionCookieOf(request),
      userIdHeader: header(request, 'x-user-id'),
      userNameHeader: header(request, 'x-user-name'),
    });
  };
  app.decorate('requireSession', requireSession);

  app.decorate('sessionIfAny', async (request: FastifyRequest) => {
    if (!sessionCookieOf(request)) return null;
    try {
      return await auth.checkSession({
        sessionToken: sessionCookieOf(request),
        userIdHeader: header(request, 'x-user-id'),
        userNameHeader: header(request, 'x-user-name'),
      });
    } catch (error) {
      if (error instanceof AuthFailedError) return null;
      throw error;
    }
  });

  app.decorate('requireTrader', (request: FastifyRequest, credentials: TraderCredentials) =>
    auth.checkTrader(sessionOf(request), credentials),
  );
}
