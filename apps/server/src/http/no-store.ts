import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * An `onRequest` hook for answers that carry secrets or session data (the login's tokens,
 * the session, a trading account, the AI settings): `Cache-Control: no-store`, so neither
 * the browser's cache nor a proxy on the way keeps them. Set before the handler runs, so
 * refusals (401, 429) carry it too.
 */
export function noStore(
  _request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  void reply.header('cache-control', 'no-store');
  done();
}
