import { CODE_BAD_REQUEST } from '@ct/domain';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { failureBody, familyOf } from './families.ts';

/**
 * Requests Fastify's router refuses before any route runs (a path segment that is not
 * valid percent-encoded UTF-8, a path parameter over the length limit) are answered in
 * the family's failure shape, like every other refusal, instead of Fastify's own body.
 * Passed as the `frameworkErrors` option of the Fastify factory (app.ts).
 */
export function frameworkErrors(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  const msg = tooLong
    ? 'A path segment is too long'
    : 'The path is not valid UTF-8 text (check its percent-encoding)';
  void reply
    .status(tooLong ? 414 : 400)
    .send(failureBody(familyOf(request.url), CODE_BAD_REQUEST, msg));
}
