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
  app.addHook('preValidation', async (request) => {
    const params = request.params as Record<string, unknown> | undefined;
    if (!params) return;
    for (const [name, value] of Object.entries(params)) {
      if (typeof value !== 'string') continue;
      const problem = identifierProblem(value);
      if (problem !== null) throw new BadRequestError(`${name}: ${problem}`);
    }
  });
}
