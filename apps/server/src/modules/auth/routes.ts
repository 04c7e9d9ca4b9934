import {
  envelopeSchema,
  loginRequestSchema,
  loginResponseSchema,
  ok,
  sessionInfoSchema,
  traderCredentialsSchema,
  traderInfoSchema,
  type SessionInfo,
  type TraderInfo,
} from '@ct/domain';
import type { FastifyInstance } from 'fastify';
import { LOGIN_PATH } from '../../http/families.ts';
import { noStore } from '../../http/no-store.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { clearSessionCookie, deviceCookieOf, setDeviceCookie, setSessionCookie } from './cookie.ts';
import { sessionOf } from './guard.ts';
import type { AuthService } from './service.ts';

// A login body is a few hundred bytes; anything near this is not a login.
const LOGIN_BODY_LIMIT = 16 * 1024;

export function authRoutes(root: FastifyInstance, auth: AuthService): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const login = { body: loginRequestSchema, response: { 200: loginResponseSchema } };
  app.post(
    LOGIN_PATH,
    { onRequest: noStore, bodyLimit: LOGIN_BODY_LIMIT, schema: login },
    async (request, reply) => {
      const body = request.body;
      const result = await auth.login({
        userName: body.user_name,
        password: body.password,
        address: request.ip,
        deviceToken: deviceCookieOf(request),
      });
      setSessionCookie(reply, result.sessionToken, result.ttlSeconds);
      setDeviceCookie(reply, result.deviceToken, result.deviceTtlSeconds);
      return { status: 0, msg: 'Login successful', data: [result.user] };
    },
  );

  app.post(
    '/user/api/v1/account/logout',
    { onRequest: noStore, preHandler: app.requireSession },
    async (request, reply) => {
      await auth.logout(sessionOf(request));
      clearSessionCookie(reply);
      return ok(null, 'Logged out');
    },
  );

  const sessionAnswer = { response: { 200: envelopeSchema(sessionInfoSchema) } };
  app.get(
    '/user/api/v1/account/session',
    { onRequest: noStore, preHandler: app.requireSession, schema: sessionAnswer },
    async (request) => {
      const session = sessionOf(request);
      const info: SessionInfo = { userId: session.userId, userName: session.email };
      return ok(info);
    },
  );

  const traderCall = {
    querystring: traderCredentialsSchema,
    response: { 200: envelopeSchema(traderInfoSchema) },
  };
  app.get(
    '/user/api/v1/account/trader',
    { onRequest: noStore, preHandler: app.requireSession, schema: traderCall },
    async (request) => {
      const trader = await app.requireTrader(request, request.query);
      const info: TraderInfo = {
        uuid: trader.uuid,
        name: trader.name,
        level: trader.level,
        type: trader.type,
        channel: trader.channel,
      };
      return ok(info);
    },
  );
}
