import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { routeLabel } from './metrics.ts';

/** The header a request id arrives in (from a proxy) and is echoed back in. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** Ids a proxy may hand us: short, printable, no spaces (anything else is replaced). */
const ACCEPTED_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/**
 * Fastify's request id: the `x-request-id` a proxy (nginx `$request_id`) sent when it looks
 * like an id, else a new UUID. Fastify puts it on every line `request.log` writes (`reqId`),
 * the error handler's lines among them.
 */
export function requestId(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && ACCEPTED_ID.test(given) ? given : randomUUID();
}

/** The Fastify options that make `requestId` the request's id. */
export const REQUEST_ID_OPTIONS = {
  // read by `requestId` (validated), not taken verbatim by Fastify
  requestIdHeader: false,
  genReqId: requestId,
} as const;

/**
 * Echoes the request id in the response, and (LOG_REQUESTS=1) writes one JSON line per
 * answered request: method, route pattern, status and milliseconds. The raw URL is left out
 * on purpose: trading calls carry the trader token in their query string.
 */
export function installRequestLog(app: FastifyInstance, logRequests: boolean): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  if (!logRequests) return;
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        route: routeLabel(request),
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
  });
}
