import { identifierProblem } from '@ct/domain';
import type { FastifyInstance } from 'fastify';
import { BadRequestError } from './errors.ts';

/**
 * Path parameters are names and ids (strategy names, symbols, ids, client ids, chart keys):
 * one check for every route refuses a segment holding a control character (NUL included),
 * a lone surrogate or an invisible/bidirectional character with a 400 naming it, before
 * any route reads it (PostgreSQL refuses NUL: it used to answer 500).
 */
export function installPathParamGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    done(pathParamError(request.params as Record<string, unknown> | undefined));
  });
}

/** The 400 of the first path parameter that is not a clean identifier, if any. */
function pathParamError(params: Record<string, unknown> | undefined): BadRequestError | undefined {
  if (!params) return undefined;
  for (const [name, value] of Object.entries(params)) {
    if (typeof value !== 'string') continue;
    const problem = identifierProblem(value);
    if (problem !== null) return new BadRequestError(`${name}: ${problem}`);
  }
  return undefined;
}
