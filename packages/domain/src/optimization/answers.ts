import { z } from 'zod';
import { OPTIMIZATION_OBJECTIVES, OPTIMIZATION_STATUSES } from './api.ts';
import { OPTIMIZATION_METHODS } from './space.ts';
import { VERDICTS } from './verdict.ts';

/*
 * The answers of the optimisation calls (docs/api.md "Optimizations"), as the web client
 * reads them.
 */

/** Query of GET /api/optimizations: the user's optimisations, of one strategy when named. */
export const optimizationListQuerySchema = z.object({
  strategy_name: z.string().trim().min(1).max(100).optional(),
});

export const paramValuesSchema = z.record(z.string(), z.union([z.number(), z.string()]));

/**
 * POST /api/optimizations/{id}/backtest: one set of values backtested on exactly the
 * optimisation's own bars (a trial's Result and Show on Chart), streamed to `client_id`'s
 * log socket like Run Code.
 */
export const optimizationBacktestRequestSchema = z
  .object({
    params: paramValuesSchema,
    client_id: z.string().max(128).nullable().optional(),
  })
  .strict();
export type OptimizationBacktestRequest = z.infer<typeof optimizationBacktestRequestSchema>;

export const trialPerformanceSchema = z.object({
  net_profit: z.number(),
  trade_count: z.number(),
  win_rate: z.number(),
  sharpe: z.number().nullable(),
  max_drawdown: z.number(),
  profit_factor: z.number().nullable(),
  sqn: z.number().nullable(),
});

const statusSchema = z.enum(OPTIMIZATION_STATUSES);
const objectiveSchema = z.enum(OPTIMIZATION_OBJECTIVES);
const methodSchema = z.enum(OPTIMIZATION_METHODS);

/** POST /api/optimizations. */
export const optimizationCreatedSchema = z.object({
  id: z.string(),
  status: statusSchema,
  trials_total: z.number(),
});

/** One item of GET /api/optimizations. */
export const optimizationSummarySchema = z.object({
  id: z.string(),
  strategy_name: z.string().nullable(),
  symbol_id: z.string(),
  period: z.string(),
  objective: objectiveSchema,
  method: methodSchema,
  status: statusSchema,
  trials_total: z.number(),
  trials_done: z.number(),
  created_at: z.number(),
  finished_at: z.number().nullable(),
});
export type OptimizationSummary = z.infer<typeof optimizationSummarySchema>;

export const optimizationListSchema = z.object({ items: z.array(optimizationSummarySchema) });

export const optimizationTrialSchema = z.object({
  index: z.number(),
  params: paramValuesSchema,
  status: z.enum(['queued', 'done', 'failed', 'cancelled']),
  performance: trialPerformanceSchema.nullable(),
  objective: z.number().nullable(),
  error: z.string().optional(),
});
export type OptimizationTrial = z.infer<typeof optimizationTrialSchema>;

const equitySchema = z.array(z.tuple([z.string(), z.number()]));

const segmentSchema = z.object({
  from: z.string(),
  to: z.string(),
  performance: trialPerformanceSchema.nullable(),
});

export const walkForwardAnswerSchema = z.object({
  folds: z.array(
    z.object({
      in_sample: segmentSchema,
      out_of_sample: segmentSchema,
      params: paramValuesSchema.nullable(),
      error: z.string().optional(),
    }),
  ),
  stitched: z.object({ performance: trialPerformanceSchema, equity: equitySchema }),
  /** The best parameters of all bars over the stitched window (absent on older answers). */
  in_sample: z.object({ params: paramValuesSchema.nullable(), equity: equitySchema }).optional(),
  efficiency: z.number().nullable(),
});
export type WalkForwardAnswer = z.infer<typeof walkForwardAnswerSchema>;

export const overfittingAnswerSchema = z.object({
  pbo: z
    .object({ value: z.number(), partitions: z.number(), combinations: z.number() })
    .loose()
    .nullable(),
  deflated_sharpe: z
    .object({ value: z.number(), sharpe: z.number(), expected_max_sharpe: z.number() })
    .loose()
    .nullable(),
  trials: z.number(),
  verdict: z.enum(VERDICTS),
  reasons: z.array(z.string()),
});
export type OverfittingAnswer = z.infer<typeof overfittingAnswerSchema>;

/** GET /api/optimizations/{id}. */
export const optimizationDetailSchema = z.object({
  id: z.string(),
  status: statusSchema,
  strategy_name: z.string().nullable(),
  symbol_id: z.string(),
  period: z.string(),
  objective: objectiveSchema,
  method: methodSchema,
  bar_count: z.number(),
  /** The code the trials ran (their PARAMS rewritten). */
  code: z.string(),
  created_at: z.number(),
  progress: z.object({ done: z.number(), total: z.number(), eta_s: z.number().nullable() }),
  best: z.object({ params: paramValuesSchema, performance: trialPerformanceSchema }).nullable(),
  trials_count: z.number(),
  trials: z.array(optimizationTrialSchema),
  walk_forward: walkForwardAnswerSchema.optional(),
  overfitting: overfittingAnswerSchema.optional(),
  error: z.string().optional(),
});
export type OptimizationDetail = z.infer<typeof optimizationDetailSchema>;

/** POST /api/optimizations/{id}/cancel. */
export const optimizationCancelledSchema = z.object({
  id: z.string(),
  status: statusSchema,
  progress: z.object({ done: z.number(), total: z.number(), eta_s: z.number().nullable() }),
});
