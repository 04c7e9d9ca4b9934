import {
  loginRequestSchema,
  ok,
  traderCredentialsSchema,
  type SessionInfo,
  type TraderInfo,
} from '@ct/domain';
import type { FastifyInstance } from 'fastify';
import { LOGIN_PATH } from '../../http/families.ts';
import { parseInput } from '../../http/validate.ts';
import { clearSessionCookie, setSessionCookie } from './cookie.ts';
import { sessionOf } from './guard.ts';
import type { AuthService } from './service.ts';

// A login body is a few hundred bytes; anything near this is not a login.
const LOGIN_BODY_LIMIT = 16 * 1024;

export function authRoutes(app: FastifyInstance, auth: AuthService): void {
  app.post(LOGIN_PATH, { bodyLimit: LOGIN_BODY_LIMIT }, async (request, reply) => {
    const body = parseInput(loginRequestSchema, request.body);
    const result = await auth.login({
      userName: body.user_name,
      password: body.password,
      address: request.ip,
    });
    setSessionCookie(reply, result.sessionToken, result.ttlSeconds);
    return { status: 0, msg: 'Login successful', data: [result.user] };
  });

  app.post(
    '/user/api/v1/account/logout',
    { preHandler: app.requireSession },
    async (request, reply) => {
      await auth.logout(sessionOf(request));
      clearSessionCookie(reply);
      return ok(null, 'Logged out');
    },
  );

  app.get('/user/api/v1/account/session', { preHandler: app.requireSession }, async (request) => {
    const session = sessionOf(request);
    const info: SessionInfo = { userId: session.userId, userName: session.email };
    return ok(info);
  });

  app.get('/user/api/v1/account/trader', { preHandler: app.requireSession }, async (request) => {
    const credentials = parseInput(traderCredentialsSchema, request.query);
    const trader = await app.requireTrader(request, credentials);
    const info: TraderInfo = {
      uuid: trader.uuid,
      name: trader.name,
      level: trader.level,
      type: trader.type,
      channel: trader.channel,
    };
    return ok(info);
  });
}
