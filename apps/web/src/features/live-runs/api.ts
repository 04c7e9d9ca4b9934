import {
  liveRunComparisonSchema,
  liveRunEvaluationsSchema,
  liveRunListSchema,
  liveRunStartedSchema,
  type LiveRunComparison,
  type LiveRunEvaluations,
  type LiveRunList,
  type LiveRunStarted,
  type startLiveRunRequestSchema,
} from '@ct/domain';
import type { z } from 'zod';
import { http } from '../../api/client';

/*
 * The live run calls (docs/api.md, "Live runs"); every answer is parsed with the domain's
 * schema before it reaches the cache. Refusals come as `{ detail }` (ApiError's body).
 */

export type {
  ComparedTradeView,
  LiveRunComparison,
  LiveRunEvaluations,
  LiveRunEvaluationView,
  LiveRunList,
  LiveRunStarted,
  LiveRunOrderView,
  LiveRunView,
  MatchedTradeView,
  PnlCauses,
  WantedPositionView,
} from '@ct/domain';

/** Body of POST /api/live-runs as the client sends it. */
export type StartLiveRunBody = z.input<typeof startLiveRunRequestSchema>;

/** A page of a run's evaluations: `skip` newest left out, then at most `limit`. */
export type EvaluationPage = { skip: number; limit: number };

/** Starts a forward test of a saved strategy on a paper account. */
export function startLiveRun(body: StartLiveRunBody): Promise<LiveRunStarted> {
  return http.post('/api/live-runs', body, { schema: liveRunStartedSchema });
}

/** The user's runs, newest first. */
export function fetchLiveRuns(): Promise<LiveRunList> {
  return http.get('/api/live-runs', { noCache: true, schema: liveRunListSchema });
}

/** Stops a run: it sends no more orders. */
export function stopLiveRun(id: string): Promise<LiveRunStarted> {
  return http.post(`/api/live-runs/${encodeURIComponent(id)}/stop`, undefined, {
    schema: liveRunStartedSchema,
  });
}

/** A page of a run's kept evaluations, newest first, and how many are kept. */
export function fetchEvaluations(id: string, page: EvaluationPage): Promise<LiveRunEvaluations> {
  return http.get(`/api/live-runs/${encodeURIComponent(id)}/evaluations`, {
    params: { skip: page.skip, limit: page.limit },
    noCache: true,
    schema: liveRunEvaluationsSchema,
  });
}

/** The run's trades against a backtest of the same code on the same bars. */
export function fetchComparison(id: string): Promise<LiveRunComparison> {
  return http.get(`/api/live-runs/${encodeURIComponent(id)}/comparison`, {
    noCache: true,
    schema: liveRunComparisonSchema,
  });
}
