import {
  backtestRunAnswerSchema,
  optimizationCancelledSchema,
  optimizationCreatedSchema,
  optimizationDetailSchema,
  optimizationListSchema,
} from '@ct/domain';
import { http } from '../../../api/client';

export type {
  OptimizationDetail,
  OptimizationSummary,
  OptimizationTrial,
  OverfittingAnswer,
  WalkForwardAnswer,
} from '@ct/domain';

/** POST /api/optimizations (the body as `optimizationBody` builds it). */
export function createOptimization(body: unknown) {
  return http.post('/api/optimizations', body, { schema: optimizationCreatedSchema });
}

/** The user's optimisations of one strategy, newest first. */
export async function fetchOptimizations(strategyName: string) {
  const answer = await http.get('/api/optimizations', {
    params: { strategy_name: strategyName },
    noCache: true,
    schema: optimizationListSchema,
  });
  return answer.items;
}

/** One optimisation with `limit` of its trials (all of them: 1000), in `sort` order. */
export function fetchOptimization(id: string, limit: number, sort = 'index') {
  return http.get(`/api/optimizations/${encodeURIComponent(id)}`, {
    params: { limit, sort },
    noCache: true,
    schema: optimizationDetailSchema,
  });
}

/**
 * One set of values backtested on exactly the optimisation's own bars (a trial's Result and
 * Show on Chart), answered as the run helper answers; its lines go to `clientId`'s log.
 */
export function backtestOnOptimization(
  id: string,
  params: Record<string, number | string>,
  clientId: string | null,
) {
  return http.post(
    `/api/optimizations/${encodeURIComponent(id)}/backtest`,
    { params, client_id: clientId },
    { schema: backtestRunAnswerSchema },
  );
}

export function cancelOptimization(id: string) {
  return http.post(
    `/api/optimizations/${encodeURIComponent(id)}/cancel`,
    {},
    { schema: optimizationCancelledSchema },
  );
}

export function deleteOptimization(id: string) {
  return http.delete(`/api/optimizations/${encodeURIComponent(id)}`);
}
