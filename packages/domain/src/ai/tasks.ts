import { z } from 'zod';
import { dealSchema, performanceSchema } from '../backtest/answers.ts';
import { CLIENT_ID_PATTERN } from '../backtest/schemas.ts';
import { backtestFeedsSchema } from '../backtest/feeds.ts';
import { identifierSchema, storableText } from '../api/text.ts';
import { strategyNameSchema } from '../backtest/schemas.ts';
import { MAX_AI_TASK_PROMPT_CHARS } from './prompt.ts';
import { aiModelIdSchema, MAX_API_KEY_CHARS } from './settings.ts';

/*
 * AI strategy tasks (spec sections 3, 4, 5, 7): the request bodies and answers of
 * POST /api/ai/strategy, GET /api/ai/strategies, GET|DELETE /api/ai/strategy/{id},
 * GET /api/ai/strategy/{id}/conversations and POST /api/ai/strategies/from-ai.
 */

/** Spec section 4: a task's lifecycle (the client never changes it). */
export const AI_TASK_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const;
export type AiTaskStatus = (typeof AI_TASK_STATUSES)[number];
export const aiTaskStatusSchema = z.enum(AI_TASK_STATUSES);

/** How the client shows a status: PENDING is 'Waiting' (spec section 4). */
export type AiTaskStatusView = 'waiting' | 'processing' | 'completed' | 'failed' | 'unknown';

/**
 * Maps any status text to what the list shows; unknown texts by substring as the spec says
 * (COMPLE/FINISH completed; FAIL/ERROR failed; PROCESS/RUNNING processing; WAIT/PEND waiting).
 */
export function aiTaskStatusView(status: string): AiTaskStatusView {
  const s = status.toUpperCase();
  if (s.includes('COMPLE') || s.includes('FINISH')) return 'completed';
  if (s.includes('FAIL') || s.includes('ERROR')) return 'failed';
  if (s.includes('PROCESS') || s.includes('RUNNING')) return 'processing';
  if (s.includes('WAIT') || s.includes('PEND')) return 'waiting';
  return 'unknown';
}

/** True while a task may still change (the list polls only then, spec section 4). */
export function isAiTaskActive(status: string): boolean {
  const view = aiTaskStatusView(status);
  return view === 'waiting' || view === 'processing';
}

/** Spec section 3: the step of a conversation message. */
export const AI_STEP_TYPES = [
  'initial_prompt',
  'generate_prompt',
  'fix_prompt',
  'regenerate_prompt',
  'ai_response',
  'validation',
  'backtest',
  'error',
] as const;
export type AiStepType = (typeof AI_STEP_TYPES)[number];
export const aiStepTypeSchema = z.enum(AI_STEP_TYPES);

/** Spec section 5, AI task form: the messages of its rules (the server answers them too). */
export const AI_TASK_FORM_MESSAGES = {
  promptRequired: 'Please enter strategy description',
  promptTooLong: `Strategy description must be at most ${MAX_AI_TASK_PROMPT_CHARS} characters`,
  providerRequired: 'Please select an AI provider',
  modelRequired: 'Please select an AI model',
  baseUrlRequired: 'Please enter API Base URL',
  noActiveChart: 'No active chart',
} as const;

/** The default `task_type`: generate a strategy from a description. */
export const DEFAULT_AI_TASK_TYPE = 'strategy';

/**
 * `POST /api/ai/strategy` body. `api_key` may be omitted (or blank) when a key is saved in
 * the user's settings for that provider; `base_url` must be the provider's own endpoint.
 * `symbol_id` and `period` name the active chart whose bars the task backtests on.
 */
export const createAiTaskRequestSchema = z.object({
  prompt: z
    .string(AI_TASK_FORM_MESSAGES.promptRequired)
    .trim()
    .min(1, AI_TASK_FORM_MESSAGES.promptRequired)
    .max(MAX_AI_TASK_PROMPT_CHARS, AI_TASK_FORM_MESSAGES.promptTooLong)
    .transform(storableText),
  provider: z
    .string(AI_TASK_FORM_MESSAGES.providerRequired)
    .trim()
    .min(1, AI_TASK_FORM_MESSAGES.providerRequired)
    .max(64),
  model: z
    .string(AI_TASK_FORM_MESSAGES.modelRequired)
    .trim()
    .min(1, AI_TASK_FORM_MESSAGES.modelRequired)
    .pipe(aiModelIdSchema),
  base_url: z
    .string(AI_TASK_FORM_MESSAGES.baseUrlRequired)
    .trim()
    .min(1, AI_TASK_FORM_MESSAGES.baseUrlRequired)
    .max(2000),
  api_key: z
    .string()
    .trim()
    .max(MAX_API_KEY_CHARS)
    .regex(/^[\x21-\x7e…]*$/, 'printable characters without spaces only')
    .nullish(),
  symbol_id: z
    .string(AI_TASK_FORM_MESSAGES.noActiveChart)
    .pipe(identifierSchema(64, AI_TASK_FORM_MESSAGES.noActiveChart)),
  period: z
    .string(AI_TASK_FORM_MESSAGES.noActiveChart)
    .pipe(identifierSchema(16, AI_TASK_FORM_MESSAGES.noActiveChart)),
  client_id: z
    .string()
    .regex(CLIENT_ID_PATTERN, 'must be 1-128 letters, digits or _ . : -')
    .nullish(),
  /** More feeds to backtest on besides the chart's (as POST /api/backtest/code's `feeds`). */
  feeds: backtestFeedsSchema.optional(),
  task_type: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[\w.-]+$/, 'letters, digits and _ . - only')
    .nullish(),
});
export type CreateAiTaskRequest = z.infer<typeof createAiTaskRequestSchema>;

/** The answer of `POST /api/ai/strategy`: the new task's id, at once (it runs in the background). */
export const createAiTaskAnswerSchema = z
  .object({ id: z.number().int(), status: aiTaskStatusSchema })
  .loose();
export type CreateAiTaskAnswer = z.infer<typeof createAiTaskAnswerSchema>;

const pageNumber = (name: string, min: number, max: number, fallback: number) =>
  z
    .union([z.string(), z.number()])
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return fallback;
      const n = typeof value === 'number' ? value : Number(value);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be an integer from ${min} to ${max}`,
        });
        return z.NEVER;
      }
      return n;
    });

const booleanText = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .optional()
  .transform((value) => value === true || value === 'true' || value === '1');

/** Spec section 9: the task list's default page size. */
export const AI_TASK_PAGE_SIZE = 10;
/** The largest page of the task list. */
export const MAX_AI_TASK_PAGE_SIZE = 100;

/**
 * `GET /api/ai/strategies?skip&limit&preview_code`: `skip` ≥ 0 (default 0), `limit` 1–100
 * (default 10). `preview_code=true` leaves out the whole code (`code`, `full_code` null) and
 * keeps `code_preview`, for a light list.
 */
export const aiTaskListQuerySchema = z.object({
  skip: pageNumber('skip', 0, 1_000_000_000, 0),
  limit: pageNumber('limit', 1, MAX_AI_TASK_PAGE_SIZE, AI_TASK_PAGE_SIZE),
  preview_code: booleanText,
});
export type AiTaskListQuery = z.infer<typeof aiTaskListQuerySchema>;

/** `GET /api/ai/strategy/{id}/conversations?retry_number`: only that attempt's messages. */
export const aiConversationQuerySchema = z.object({
  retry_number: pageNumber('retry_number', 0, 1000, -1).transform((n) => (n === -1 ? null : n)),
});
export type AiConversationQuery = z.infer<typeof aiConversationQuerySchema>;

/** `POST /api/ai/strategies/from-ai`: save a completed task's code as a strategy of the user. */
export const createStrategyFromAiRequestSchema = z.object({
  name: strategyNameSchema,
  task_id: z.union([z.number(), z.string()]).transform((value, ctx) => {
    const n = typeof value === 'number' ? value : /^\d{1,10}$/.test(value) ? Number(value) : NaN;
    // Task ids are PostgreSQL integers: a larger number is no task (and no 500).
    if (!Number.isInteger(n) || n < 1 || n > 2_147_483_647) {
      ctx.addIssue({ code: 'custom', message: 'task_id must be a task id' });
      return z.NEVER;
    }
    return n;
  }),
});
export type CreateStrategyFromAiRequest = z.infer<typeof createStrategyFromAiRequestSchema>;

/** Performance of one part of the task's bars (`in_sample`, `out_of_sample`). */
export const aiSegmentResultSchema = z
  .object({
    /** Date of the segment's first and last bar. */
    from: z.string(),
    to: z.string(),
    bar_count: z.number(),
    trade_count: z.number(),
    /** null when the segment has no trade opened in it. */
    performance: performanceSchema.nullable(),
  })
  .loose();
export type AiSegmentResult = z.infer<typeof aiSegmentResultSchema>;

/** `backtest_result.lookahead`: whether past entries survive removing later bars. */
export const aiLookaheadSchema = z
  .object({
    passed: z.boolean(),
    cuts: z.array(
      z
        .object({
          bars: z.number(),
          until: z.string(),
          entries: z.number(),
          changed: z.number(),
          error: z.string().nullable(),
        })
        .loose(),
    ),
    detail: z.string(),
  })
  .loose();

/**
 * A completed task's results: `performance` and `deals` of the whole period (as the spec
 * reads them), the `in_sample` part the fix loop saw (first 70 % of the bars), the
 * `out_of_sample` rest, and the look-ahead verdict.
 */
export const aiBacktestResultSchema = z
  .object({
    performance: performanceSchema,
    deals: z.array(dealSchema),
    symbol: z.string(),
    period: z.string(),
    bar_count: z.number(),
    in_sample_fraction: z.number(),
    in_sample: aiSegmentResultSchema,
    out_of_sample: aiSegmentResultSchema,
    lookahead: aiLookaheadSchema,
  })
  .loose();
export type AiBacktestResult = z.infer<typeof aiBacktestResultSchema>;

/**
 * An AI task as answered (spec section 3: id, status, prompt, code, full_code, code_preview,
 * backtest_result, error_message, created_at, retry_count; and what the task was made with).
 * `code` and `full_code` are the whole final code (null until COMPLETED, and in a list asked
 * with `preview_code=true`); `code_preview` its first 20 lines. Times in epoch seconds.
 */
export const aiTaskSchema = z
  .object({
    id: z.number().int(),
    status: z.string(),
    task_type: z.string(),
    prompt: z.string(),
    provider: z.string(),
    model: z.string(),
    symbol_id: z.string(),
    period: z.string(),
    client_id: z.string().nullable(),
    code: z.string().nullable(),
    full_code: z.string().nullable(),
    code_preview: z.string().nullable(),
    backtest_result: aiBacktestResultSchema.nullable(),
    error_message: z.string().nullable(),
    retry_count: z.number().int(),
    max_retries: z.number().int(),
    created_at: z.number(),
    updated_at: z.number(),
    started_at: z.number().nullable(),
    finished_at: z.number().nullable(),
  })
  .loose();
export type AiTask = z.infer<typeof aiTaskSchema>;

/** `GET /api/ai/strategies`: the user's tasks, newest first, and how many there are. */
export const aiTaskListSchema = z
  .object({ tasks: z.array(aiTaskSchema), total: z.number().int() })
  .loose();
export type AiTaskList = z.infer<typeof aiTaskListSchema>;

/**
 * A conversation message (spec section 3). `role` 'user' is what was sent to the model,
 * 'ai' the model's answers and the server's checks. `retry_number`: 0 for the first
 * attempt, n after the n-th retry. `extra_data`: the step's details (code, error, figures).
 */
export const aiConversationMessageSchema = z
  .object({
    id: z.number().int(),
    role: z.enum(['user', 'ai']),
    content: z.string(),
    step_type: z.string(),
    retry_number: z.number().int(),
    extra_data: z.record(z.string(), z.unknown()).nullable(),
    created_at: z.number(),
  })
  .loose();
export type AiConversationMessage = z.infer<typeof aiConversationMessageSchema>;

/**
 * `GET /api/ai/strategy/{id}/conversations`: the messages in order; `total_messages` counts
 * them; `retry_numbers` lists the attempts the whole conversation has (for the selector).
 */
export const aiConversationSchema = z
  .object({
    task_id: z.number().int(),
    conversations: z.array(aiConversationMessageSchema),
    total_messages: z.number().int(),
    retry_numbers: z.array(z.number().int()),
  })
  .loose();
export type AiConversation = z.infer<typeof aiConversationSchema>;

/** `DELETE /api/ai/strategy/{id}`: `cancelled` when the task was still waiting or running. */
export const deleteAiTaskAnswerSchema = z
  .object({ id: z.number().int(), deleted: z.literal(true), cancelled: z.boolean() })
  .loose();
export type DeleteAiTaskAnswer = z.infer<typeof deleteAiTaskAnswerSchema>;

/** Spec section 8: the auto name of a strategy created from AI code, `AI_Strategy_` + local time. */
export function aiStrategyAutoName(localDateTime: string): string {
  return `AI_Strategy_${localDateTime.replace(/[/ :]/g, '_')}`;
}
