import {
  strategyVersionListSchema,
  strategyVersionSchema,
  type Deal,
  type Performance,
  type StrategyVersion,
  type StrategyVersionSummary,
} from '@ct/domain';
import { ApiError, http } from '../../api/client';

export type SavedStrategy = { name: string; code: string; created_at: number; updated_at: number };

/** The answer of /api/backtest/code (the `data` of the run helper). */
export type BacktestAnswer = {
  run_id: string | null;
  deals: Deal[];
  performance: Performance | null;
  error: string | null;
  error_kind: string | null;
  logs: string[];
  symbol?: string;
  period?: string;
  bar_count?: number;
};

export type RunAnswer = { success: boolean; reason: string | null; data: BacktestAnswer | null };

export type StrategyResult = {
  id: number;
  strategy_name: string;
  symbol_id: string;
  deals: Deal[];
  performance: Performance | null;
  error: string | null;
  run_id: string | null;
  has_logs: boolean;
  created_at: number;
};

/** The server's `detail` (or message) of a failed call. */
export function failureDetail(error: unknown): string | null {
  if (error instanceof ApiError) {
    const body = error.body as { detail?: unknown } | null;
    if (body && typeof body.detail === 'string' && body.detail) return body.detail;
  }
  return error instanceof Error && error.message ? error.message : null;
}

export async function fetchStrategies(): Promise<SavedStrategy[]> {
  const answer = (await http.get('/api/strategies/', { noCache: true })) as {
    strategies: SavedStrategy[];
  };
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
  return (await http.post('/api/strategies/', {
    name,
    code,
    create: options.create ?? false,
    ...(options.allowEmpty ? { allow_empty: true } : {}),
    ...(options.keepVersion ? { keep_version: true } : {}),
  })) as SavedStrategy & { created: boolean };
}

/** The strategy's kept earlier codes, newest first (without their code). */
export async function fetchVersions(name: string): Promise<StrategyVersionSummary[]> {
  const answer = await http.get(`/api/strategies/${encodeURIComponent(name)}/versions`, {
    noCache: true,
  });
  return strategyVersionListSchema.parse(answer).versions;
}

export async function fetchVersion(name: string, id: number): Promise<StrategyVersion> {
  const answer = await http.get(`/api/strategies/${encodeURIComponent(name)}/versions/${id}`, {
    noCache: true,
  });
  return strategyVersionSchema.parse(answer);
}

export async function deleteStrategy(name: string): Promise<void> {
  await http.delete(`/api/strategies/${encodeURIComponent(name)}`);
}

export async function runBacktest(request: {
  clientId: string;
  code: string;
  symbol: string;
  period: string;
  strategy_name?: string;
}): Promise<RunAnswer> {
  return (await http.post('/api/backtest/run', request)) as RunAnswer;
}

export async function saveResult(body: {
  strategy_name: string;
  symbol_id: string;
  run_id?: string | null;
  deals?: Deal[];
  performance?: Performance | null;
  error?: string | null;
}): Promise<StrategyResult> {
  return (await http.post('/api/strategy-results/', body)) as StrategyResult;
}

export async function fetchResults(
  strategy: string,
  params: { symbol_id?: string; skip: number; limit: number },
): Promise<{ results: StrategyResult[]; total: number }> {
  return (await http.get(`/api/strategy-results/${encodeURIComponent(strategy)}`, {
    params,
    noCache: true,
  })) as { results: StrategyResult[]; total: number };
}
