import {
  backtestRunAnswerSchema,
  savedStrategySchema,
  strategyListSchema,
  strategyResultSchema,
  strategyResultsPageSchema,
  strategyTemplateSchema,
  strategyVersionListSchema,
  strategyVersionSchema,
  type backtestRunRequestSchema,
  type BacktestRunAnswer,
  type resultsQuerySchema,
  type saveResultRequestSchema,
  type saveStrategyRequestSchema,
  type StrategyResult,
  type StrategyResultsPage,
  type StrategyVersion,
  type StrategyVersionSummary,
  type StrategyView,
} from '@ct/domain';
import { z } from 'zod';
import { ApiError, http } from '../../api/client';

export type { BacktestAnswer, StrategyResult, StrategyResultsPage } from '@ct/domain';
export type SavedStrategy = StrategyView;
export type RunAnswer = BacktestRunAnswer;

/** Body of POST /api/backtest/run as the client sends it. */
export type RunRequest = z.input<typeof backtestRunRequestSchema>;
/** Body of POST /api/strategy-results/ as the client sends it. */
export type SaveResultRequest = z.input<typeof saveResultRequestSchema>;
/** Query of GET /api/strategy-results/{strategy} as the client sends it. */
export type ResultsQuery = z.input<typeof resultsQuerySchema>;

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

export async function saveResult(body: SaveResultRequest): Promise<StrategyResult> {
  return http.post('/api/strategy-results/', body, { schema: strategyResultSchema });
}

export async function fetchResults(
  strategy: string,
  params: ResultsQuery,
): Promise<StrategyResultsPage> {
  return http.get(`/api/strategy-results/${encodeURIComponent(strategy)}`, {
    params,
    noCache: true,
    schema: strategyResultsPageSchema,
  });
}
