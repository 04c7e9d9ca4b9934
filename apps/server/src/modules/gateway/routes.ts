import type {} from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../http/errors.ts';
import type { GatewayHub } from './hub.ts';
import { isAllowedOrigin } from '../../http/origin.ts';

/** The live endpoint: Centrifuge client protocol (JSON) over WebSocket. */
export const LIVE_PATH = '/connection/websocket';

/** A WebSocket upgrade from another site's page (its `Origin` is neither ours nor configured). */
export class ForeignOriginError extends AppError {
  constructor() {
    super(40300, 'WebSocket connections are accepted from this site only', 403);
  }
}

/**
 * Refuses (403, before the upgrade) a WebSocket from a foreign origin; a plain GET passes
 * (the route answers it as unknown).
 */
export function originGuard(publicOrigins: readonly string[]) {
  return async (request: Parameters<typeof isAllowedOrigin>[0] & { ws: boolean }) => {
    if (request.ws && !isAllowedOrigin(request, publicOrigins)) throw new ForeignOriginError();
  };
}

/** Options of every send: bytes go as a text message too (the Centrifuge JSON protocol). */
const AS_TEXT = { binary: false } as const;

export function gatewayRoutes(
  app: FastifyInstance,
  hub: GatewayHub,
  now: () => number,
  publicOrigins: readonly string[] = [],
): void {
  app.get(LIVE_PATH, { websocket: true, preHandler: originGuard(publicOrigins) }, (socket) => {
    const session = hub.open({
      send: (text) => socket.send(text, AS_TEXT),
      close: (code, reason) => socket.close(code, reason),
      bufferedAmount: () => socket.bufferedAmount,
    });
    socket.on('message', (data, isBinary) => {
      if (isBinary) {
        session.disconnect({ code: 3501, reason: 'bad request' });
        return;
      }
      session.receive(data.toString(), now());
    });
    socket.on('close', () => session.closed());
    socket.on('error', () => session.closed());
  });
}
