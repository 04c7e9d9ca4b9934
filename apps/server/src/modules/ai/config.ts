import fs from 'node:fs';
import path from 'node:path';
import { aiProviderSchema, type AiProvider } from '@ct/domain';
import { z } from 'zod';
import type { WindowLimit } from '../auth/rate-limit.ts';

/** The AI assistant's settings (README, Configuration); defaults when absent. */
export type AiConfig = {
  /** OLLAMA_BASE_URL: the local model server's OpenAI-compatible endpoint. */
  ollamaBaseUrl: string;
  /** AI_EXTRA_PROVIDERS: endpoints an administrator allows besides the built-in ones. */
  extraProviders: AiProvider[];
  /**
   * SETTINGS_ENCRYPTION_KEY: the secret API keys are encrypted with. Null: a random key in
   * `<DATA_DIR>/settings-encryption.key` (mode 0600), made on first use.
   */
  encryptionSecret: string | null;
  /** AI_FIRST_TOKEN_TIMEOUT_MS: from the request to the first streamed token. */
  firstTokenTimeoutMs: number;
  /** AI_IDLE_TIMEOUT_MS: the longest pause between two streamed chunks. */
  idleTimeoutMs: number;
  /** AI_ANSWER_TIMEOUT_MS: the longest one chat answer may take, start to end. */
  answerTimeoutMs: number;
  /**
   * AI_ANSWER_MAX_CHARS: the most characters (reasoning and content together) one model
   * answer may have, in a chat and in each attempt of a task; the rest is not read.
   */
  answerMaxChars: number;
  /** AI_CHAT_RATE_LIMIT: chat calls per user per minute. */
  chatRate: WindowLimit;
  /** AI strategy tasks: the background worker and its loop. */
  tasks: AiTaskConfig;
};

/** The AI strategy task worker's settings (README, Configuration). */
export type AiTaskConfig = {
  /** AI_TASK_CONCURRENCY: tasks one worker runs at the same time (0: this node runs none). */
  concurrency: number;
  /** AI_TASK_MAX_RETRIES: failed attempts fixed before a task ends FAILED. */
  maxRetries: number;
  /** AI_TASK_MODEL_TIMEOUT_MS: the longest one model answer may take, start to end. */
  modelTimeoutMs: number;
  /** AI_TASK_MAX_PENDING_PER_USER: a user's tasks waiting or running at once; more are refused. */
  maxPendingPerUser: number;
  /** AI_TASK_LEASE_MS: a claimed task whose worker stopped renewing this long is taken up again. */
  leaseMs: number;
  /** How often an idle worker looks for tasks created on other nodes. */
  pollMs: number;
  /** AI_TASK_BARS: the newest bars of the task's chart it is generated and judged on. */
  bars: number;
};

export const DEFAULT_AI_TASK_CONFIG: AiTaskConfig = {
  concurrency: 2,
  maxRetries: 3,
  modelTimeoutMs: 300_000,
  maxPendingPerUser: 10,
  leaseMs: 60_000,
  pollMs: 2000,
  bars: 1000,
};

export const DEFAULT_OLLAMA_BASE_URL = 'http://127.0.0.1:11434/v1';

export const DEFAULT_AI_CONFIG: AiConfig = {
  ollamaBaseUrl: DEFAULT_OLLAMA_BASE_URL,
  extraProviders: [],
  encryptionSecret: null,
  firstTokenTimeoutMs: 60_000,
  idleTimeoutMs: 30_000,
  answerTimeoutMs: 300_000,
  answerMaxChars: 300_000,
  chatRate: { limit: 20, windowMs: 60_000 },
  tasks: DEFAULT_AI_TASK_CONFIG,
};

const extraProvidersSchema = z.array(aiProviderSchema);

/**
 * AI_EXTRA_PROVIDERS: a JSON array of providers, or the path of a file holding one
 * (relative paths from `cwd`). Throws an Error naming the problem.
 */
export function loadExtraProviders(raw: string | undefined, cwd: string): AiProvider[] {
  if (raw === undefined || raw.trim() === '') return [];
  let text = raw;
  if (!raw.trim().startsWith('[')) {
    const file = path.resolve(cwd, raw.trim());
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      throw new Error(`AI_EXTRA_PROVIDERS: cannot read ${file}`);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('AI_EXTRA_PROVIDERS: not valid JSON');
  }
  const parsed = extraProvidersSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`AI_EXTRA_PROVIDERS: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return parsed.data;
}

/** OLLAMA_BASE_URL, AI_*, SETTINGS_ENCRYPTION_KEY: the environment this module reads (composed by config.ts). */
export const aiEnv = z.object({
  OLLAMA_BASE_URL: z.url({ protocol: /^https?$/ }).default(DEFAULT_OLLAMA_BASE_URL),
  AI_EXTRA_PROVIDERS: z.string().optional(),
  SETTINGS_ENCRYPTION_KEY: z.string().min(32).optional(),
  AI_FIRST_TOKEN_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  AI_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  AI_ANSWER_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(300_000),
  AI_ANSWER_MAX_CHARS: z.coerce.number().int().min(1000).max(100_000_000).default(300_000),
  AI_CHAT_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(20),
  AI_TASK_CONCURRENCY: z.coerce.number().int().min(0).max(32).default(2),
  AI_TASK_MAX_RETRIES: z.coerce.number().int().min(0).max(20).default(3),
  AI_TASK_MODEL_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(300_000),
  AI_TASK_MAX_PENDING_PER_USER: z.coerce.number().int().min(1).max(10_000).default(10),
  AI_TASK_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  AI_TASK_BARS: z.coerce.number().int().min(50).max(5000).default(1000),
});

/** The AI settings from the environment (extra providers' files from `cwd`); throws naming a bad value. */
export function aiConfigFromEnv(e: z.output<typeof aiEnv>, cwd: string): AiConfig {
  return {
    ollamaBaseUrl: e.OLLAMA_BASE_URL,
    extraProviders: loadExtraProviders(e.AI_EXTRA_PROVIDERS, cwd),
    encryptionSecret: e.SETTINGS_ENCRYPTION_KEY ?? null,
    firstTokenTimeoutMs: e.AI_FIRST_TOKEN_TIMEOUT_MS,
    idleTimeoutMs: e.AI_IDLE_TIMEOUT_MS,
    answerTimeoutMs: e.AI_ANSWER_TIMEOUT_MS,
    answerMaxChars: e.AI_ANSWER_MAX_CHARS,
    chatRate: { ...DEFAULT_AI_CONFIG.chatRate, limit: e.AI_CHAT_RATE_LIMIT },
    tasks: {
      ...DEFAULT_AI_CONFIG.tasks,
      concurrency: e.AI_TASK_CONCURRENCY,
      maxRetries: e.AI_TASK_MAX_RETRIES,
      modelTimeoutMs: e.AI_TASK_MODEL_TIMEOUT_MS,
      maxPendingPerUser: e.AI_TASK_MAX_PENDING_PER_USER,
      leaseMs: e.AI_TASK_LEASE_MS,
      bars: e.AI_TASK_BARS,
    },
  };
}
