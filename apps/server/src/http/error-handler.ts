import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CODE_BAD_REQUEST, CODE_INTERNAL, CODE_NOT_FOUND } from '@ct/domain';
import {
  AppError,
  BODY_TOO_LARGE_MESSAGE,
  CODE_BODY_TOO_LARGE,
  INTERNAL_ERROR_MESSAGE,
  RateLimitedError,
} from './errors.ts';
import { failureBody, familyOf, isWebAppPath } from './families.ts';
import { sendWebApp, type WebApp } from './static.ts';

// Fastify's own request errors, reworded for the client; all of them are a 400 to us.
const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Malformed JSON body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Empty JSON body',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type: send application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
};

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && 'statusCode' in error;
}

function send(
  reply: FastifyReply,
  request: FastifyRequest,
  status: number,
  code: number,
  msg: string,
) {
  return reply.status(status).send(failureBody(familyOf(request.url), code, msg));
}

/**
 * The one place where errors become answers: typed app errors keep their code and message,
 * malformed requests are a 400, anything else is logged and answered without internals.
 */
export function installErrorHandlers(app: FastifyInstance, webApp: WebApp): void {
  app.setErrorHandler((error: unknown, request, reply) => {
    if (error instanceof AppError) {
      if (error instanceof RateLimitedError) {
        void reply.header('retry-after', String(error.retryAfterSeconds));
      }
      return send(reply, request, error.httpStatus, error.code, error.message);
    }
    if (isFastifyError(error) && error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // over the route's body limit, announced (Content-Length) or found while reading a
      // chunked body: 413, so a client knows that sending it again will not help
      return send(reply, request, 413, CODE_BODY_TOO_LARGE, BODY_TOO_LARGE_MESSAGE);
    }
    if (isFastifyError(error) && error.statusCode !== undefined && error.statusCode < 500) {
      // Malformed JSON is a SyntaxError from the parser (with statusCode 400).
      const msg =
        FASTIFY_MESSAGES[error.code] ??
        (error instanceof SyntaxError ? 'Malformed JSON body' : 'Bad request');
      return send(reply, request, 400, CODE_BAD_REQUEST, msg);
    }
    request.log.error({ err: error }, 'unexpected error');
    return send(reply, request, 500, CODE_INTERNAL, INTERNAL_ERROR_MESSAGE);
  });

  app.setNotFoundHandler((request, reply) => {
    const getLike = request.method === 'GET' || request.method === 'HEAD';
    if (getLike && isWebAppPath(request.url)) return sendWebApp(reply, request.url, webApp);
    return send(
      reply,
      request,
      404,
      CODE_NOT_FOUND,
      `Route ${request.method} ${request.url.split('?')[0]} not found`,
    );
  });
}
