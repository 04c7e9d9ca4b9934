import {
  type optimizationRequestSchema,
  paramSpaceSchema,
  parseConstraint,
  parseStrategyParams,
  planTrials,
  resolveParamSpace,
  walkForwardFolds,
  type ParamSpace,
  type ParamValues,
  type WalkForwardFold,
  type WalkForwardSettings,
} from '@ct/domain';
import type { z } from 'zod';
import { BadRequestError } from '../../../http/errors.ts';

/*
 * The planning step: the values of every trial, from the request's parameter space over the
 * strategy's declared PARAMS (a grid, or random draws), filtered by its constraint; and the
 * walk-forward folds the bars are cut into. A request that cannot be planned is refused with
 * the reason.
 */

/** The first problem of a body that failed its schema, as the answer names it. */
export function problemOf(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid body';
  const path = issue.path.join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** The request's parameter space, checked (before the strategy is looked up). */
export function paramSpaceOf(params: unknown): ParamSpace {
  const space = paramSpaceSchema.safeParse(params);
  if (!space.success)
    throw new BadRequestError(
      `params.${problemOf(space.error)}`.replace('params.params', 'params'),
    );
  return space.data;
}

/** The values of each trial of `code` over the parameter space; at most `limit` trials. */
export function planOptimization(
  code: string,
  space: ParamSpace,
  request: Pick<
    z.infer<typeof optimizationRequestSchema>,
    'constraint' | 'method' | 'max_trials' | 'seed'
  >,
  limit: number,
): ParamValues[] {
  const declared = parseStrategyParams(code);
  if (!declared.ok) throw new BadRequestError(`code: ${declared.error}`);
  const resolved = resolveParamSpace(space, declared.params);
  if (!resolved.ok) throw new BadRequestError(resolved.error);
  let constraint = null;
  if (request.constraint && request.constraint.trim() !== '') {
    const parsedConstraint = parseConstraint(request.constraint, declared.params);
    if (!parsedConstraint.ok) throw new BadRequestError(`constraint: ${parsedConstraint.error}`);
    constraint = parsedConstraint.constraint;
  }
  const plan = planTrials({
    declared: declared.params,
    dimensions: resolved.dimensions,
    fixed: resolved.fixed,
    constraint,
    method: request.method,
    maxTrials: request.max_trials ?? null,
    seed: request.seed ?? 0,
    limit,
  });
  if (!plan.ok) throw new BadRequestError(plan.error);
  return plan.trials;
}

/** The walk-forward folds of `barCount` bars; none without walk-forward settings. */
export function foldsFor(
  barCount: number,
  walkForward: WalkForwardSettings | null | undefined,
): WalkForwardFold[] {
  if (!walkForward) return [];
  const cut = walkForwardFolds(barCount, walkForward);
  if (!cut.ok) throw new BadRequestError(cut.error);
  return cut.folds;
}
