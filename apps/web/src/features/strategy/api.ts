import {
  MAX_RESULT_DEALS_PAGE,
  backtestRunAnswerSchema,
  resultDealsPageSchema,
  savedStrategySchema,
  strategyListSchema,
  strategyResultDetailSchema,
  strategyResultSummaryPageSchema,
  strategyResultSummarySchema,
  strategyTemplateSchema,
  strategyVersionListSchema,
  strategyVersionSchema,
  type backtestRunRequestSchema,
  type BacktestRunAnswer,
  type Deal,
  type ResultDealsPage,
  type resultDealsQuerySchema,
  type resultsQuerySchema,
  type saveResultRequestSchema,
  type saveStrategyRequestSchema,
  type StrategyResultDetail,
  type StrategyResultSummary,
  type StrategyResultSummaryPage,
  type StrategyVersion,
  type StrategyVersionSummary,
  type StrategyView,
} from '@ct/domain';
import { z } from 'zod';
import { ApiError, http } from '../../api/client';

export type {
  BacktestAnswer,
  ResultDealsPage,
  StrategyResult,
  StrategyResultDetail,
  StrategyResultSummary,
  StrategyResultSummaryPage,
} from '@ct/domain';
export type SavedStrategy = StrategyView;
export type RunAnswer = BacktestRunAnswer;

/** Body of POST /api/backtest/run as the client sends it. */
export type RunRequest = z.input<typeof backtestRunRequestSchema>;
/** Body of POST /api/strategy-results/ as the client sends it. */
export type SaveResultRequest = z.input<typeof saveResultRequestSchema>;
/** Query of GET /api/strategy-results/{strategy} as the client sends it. */
export type ResultsQuery = z.input<typeof resultsQuerySchema>;
/** Query of GET /api/strategy-results/{strategy}/{id}/deals as the client sends it. */
export type ResultDealsQuery = z.input<typeof resultDealsQuerySchema>;

const failureBodySchema = z.object({ detail: z.string().min(1) }).loose();

/** The strategy template code (GET /api/strategy/template, `data.code`). */
export async function fetchStrategyTemplate(): Promise<string> {
  return (await http.get('/api/strategy/template', { schema: strategyTemplateSchema })).code;
}

/** The server's `detail` (or message) of a failed call. */
export function failureDetail(error: unknown): string | null {
  if (error instanceof ApiError) {
    const body = failureBodySchema.safeParse(error.body);
    if (body.success) return body.data.detail;
  }
  return error instanceof Error && error.message ? error.message : null;
}

export async function fetchStrategies(): Promise<SavedStrategy[]> {
  const answer = await http.get('/api/strategies/', {
    noCache: true,
    schema: strategyListSchema,
  });
  return answer.strategies;
}

/**
 * Saves a strategy's code (`create`: a new one). The server refuses blank code over non-blank
 * saved code unless `allowEmpty` (the user confirmed it). `keepVersion` (an explicit save, a
 * restore) keeps the replaced code as a version even when it was saved moments ago.
 */
export async function saveStrategy(
  name: string,
  code: string,
  options: { create?: boolean; allowEmpty?: boolean; keepVersion?: boolean } = {},
) {
  const body: z.input<typeof saveStrategyRequestSchema> = {
    name,
    code,
    create: options.create ?? false,
    ...(options.allowEmpty ? { allow_empty: true } : {}),
    ...(options.keepVersion ? { keep_version: true } : {}),
  };
  return http.post('/api/strategies/', body, { schema: savedStrategySchema });
}

/** The strategy's kept earlier codes, newest first (without their code). */
export async function fetchVersions(name: string): Promise<StrategyVersionSummary[]> {
  const answer = await http.get(`/api/strategies/${encodeURIComponent(name)}/versions`, {
    noCache: true,
    schema: strategyVersionListSchema,
  });
  return answer.versions;
}

export async function fetchVersion(name: string, id: number): Promise<StrategyVersion> {
  return http.get(`/api/strategies/${encodeURIComponent(name)}/versions/${id}`, {
    noCache: true,
    schema: strategyVersionSchema,
  });
}

export async function deleteStrategy(name: string): Promise<void> {
  await http.delete(`/api/strategies/${encodeURIComponent(name)}`);
}

export async function runBacktest(request: RunRequest): Promise<RunAnswer> {
  return http.post('/api/backtest/run', request, { schema: backtestRunAnswerSchema });
}

/** Saves a result; the answer is its summary (no deals; they stay on the server). */
export async function saveResult(body: SaveResultRequest): Promise<StrategyResultSummary> {
  return http.post('/api/strategy-results/', body, { schema: strategyResultSummarySchema });
}

/** One page of a strategy's saved results: summaries, without deals or equity curve. */
export async function fetchResults(
  strategy: string,
  params: ResultsQuery,
): Promise<StrategyResultSummaryPage> {
  return http.get(`/api/strategy-results/${encodeURIComponent(strategy)}`, {
    params,
    noCache: true,
    schema: strategyResultSummaryPageSchema,
  });
}

const resultPath = (strategy: string, id: number) =>
  `/api/strategy-results/${encodeURIComponent(strategy)}/${id}`;

/** A saved result's full figures (with the equity curve) and log, without its deals. */
export async function fetchResultDetail(
  strategy: string,
  id: number,
): Promise<StrategyResultDetail> {
  return http.get(resultPath(strategy, id), { noCache: true, schema: strategyResultDetailSchema });
}

/** One page of a saved result's deals and their count. */
export async function fetchResultDeals(
  strategy: string,
  id: number,
  params: ResultDealsQuery,
): Promise<ResultDealsPage> {
  return http.get(`${resultPath(strategy, id)}/deals`, {
    params,
    noCache: true,
    schema: resultDealsPageSchema,
  });
}

/** Every deal of a saved result, fetched page by page (the largest pages the server gives). */
export async function fetchAllResultDeals(strategy: string, id: number): Promise<Deal[]> {
  const deals: Deal[] = [];
  for (;;) {
    const page = await fetchResultDeals(strategy, id, {
      skip: deals.length,
      limit: MAX_RESULT_DEALS_PAGE,
    });
    deals.push(...page.deals);
    if (page.deals.length === 0 || deals.length >= page.total) return deals;
  }
}
