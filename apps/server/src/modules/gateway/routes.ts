import type {} from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { GatewayHub } from './hub.ts';

/** The live endpoint: Centrifuge client protocol (JSON) over WebSocket. */
export const LIVE_PATH = '/connection/websocket';

export function gatewayRoutes(app: FastifyInstance, hub: GatewayHub, now: () => number): void {
  app.get(LIVE_PATH, { websocket: true }, (socket) => {
    const session = hub.open({
      send: (text) => socket.send(text),
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
