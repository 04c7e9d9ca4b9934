import type {} from '@fastify/websocket';
import type { WebSocket } from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../http/errors.ts';

/**
 * A WebSocket upgrade is answered by a WebSocket route only: an upgrade to any other path
 * (unknown, or an HTTP route, or a web-app path) gets a plain 404 and no `101`. Call before
 * the routes are registered.
 */
export function installWebSocketGuards(app: FastifyInstance): void {
  const socketRoutes = new Set<string>();
  app.addHook('onRoute', (route) => {
    if (route.websocket || route.wsHandler) socketRoutes.add(route.url);
  });
  app.addHook('onRequest', (request, _reply, done) => {
    const url = request.routeOptions.url;
    if (!request.ws || (url !== undefined && socketRoutes.has(url))) return done();
    done(new NotFoundError(`Route GET ${request.url.split('?')[0]} not found`));
  });
}

/** Errors the `ws` library reports for a client's malformed or oversized frames. */
function isClientProtocolError(error: unknown): error is Error & { code: string } {
  return (
    error instanceof Error &&
    'code' in error &&
    typeof error.code === 'string' &&
    error.code.startsWith('WS_ERR_')
  );
}

const reported = new WeakSet<WebSocket>();

/**
 * A socket's error: a client's protocol error (bad frame, frame too big) is the client's
 * fault and logged once per connection at warn, without a stack (a flood of bad frames must
 * not flood the log); anything else is ours and logged as an error. The socket ends.
 */
export function webSocketErrorHandler(
  error: Error,
  socket: WebSocket,
  request: FastifyRequest,
): void {
  if (!reported.has(socket)) {
    reported.add(socket);
    if (isClientProtocolError(error)) {
      request.log.warn(
        { code: error.code, url: request.url.split('?')[0] },
        `WebSocket protocol error from the client: ${error.message}`,
      );
    } else {
      request.log.error({ err: error, url: request.url.split('?')[0] }, 'WebSocket error');
    }
  }
  socket.terminate();
}
