import { z } from 'zod';
import { strategyNameSchema } from './schemas.ts';

/** Earlier codes kept per strategy; a save beyond this prunes the oldest. */
export const MAX_STRATEGY_VERSIONS = 20;
/**
 * A replaced code becomes a version when it stood unchanged at least this long (seconds):
 * while a user types, auto-save replaces the code every few seconds and those passing states
 * are not worth a version each (20 of them would hold a minute of typing). The code as it
 * was before an editing session, and every pause of a minute, stay recoverable. An explicit
 * save or a restore (`keep_version: true`), and replacing code with empty code
 * (`allow_empty: true`), keep the replaced code whatever its age.
 */
export const VERSION_SETTLE_SECONDS = 60;

/** True when a save at `at` replacing code saved at `savedAt` keeps that code as a version. */
export function keepsReplacedCode(savedAt: number, at: number, explicit: boolean): boolean {
  return explicit || at - savedAt >= VERSION_SETTLE_SECONDS;
}

/** Characters of a version's first non-blank line shown in the list. */
export const VERSION_PREVIEW_CHARS = 120;

/** True when the code has nothing but whitespace (an editor emptied by mistake, say). */
export function isBlankCode(code: string): boolean {
  return code.trim() === '';
}

/**
 * True when saving `next` would replace non-blank saved code with blank code: the server
 * refuses that without `allow_empty: true`, and auto-save never sends it. Unknown saved
 * code (null) is treated as nothing to lose.
 */
export function wouldBlankSavedCode(saved: string | null | undefined, next: string): boolean {
  return saved !== null && saved !== undefined && !isBlankCode(saved) && isBlankCode(next);
}

/** The first non-blank line of `code`, trimmed, at most VERSION_PREVIEW_CHARS characters. */
export function codePreview(code: string): string {
  const line = code.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.trim().slice(0, VERSION_PREVIEW_CHARS);
}

/** Lines of `code` as an editor counts them (a trailing newline starts an empty last line). */
export function codeLineCount(code: string): number {
  return code === '' ? 0 : code.split('\n').length;
}

/** One kept version in GET /api/strategies/{name}/versions (newest first). */
export const strategyVersionSummarySchema = z.object({
  id: z.number().int().positive(),
  /** When this code was saved (epoch seconds); a later save replaced it. */
  created_at: z.number().int(),
  /** Characters. */
  length: z.number().int().nonnegative(),
  lines: z.number().int().nonnegative(),
  /** The first non-blank line. */
  preview: z.string(),
});
export type StrategyVersionSummary = z.infer<typeof strategyVersionSummarySchema>;

export const strategyVersionListSchema = z.object({
  strategy_name: z.string(),
  versions: z.array(strategyVersionSummarySchema),
});
export type StrategyVersionList = z.infer<typeof strategyVersionListSchema>;

/** GET /api/strategies/{name}/versions/{id}: one version with its code. */
export const strategyVersionSchema = strategyVersionSummarySchema
  .omit({ preview: true })
  .extend({ strategy_name: z.string(), code: z.string() });
export type StrategyVersion = z.infer<typeof strategyVersionSchema>;

/** Path parameters of GET /api/strategies/{name}/versions/{id}: id is a positive integer. */
export const strategyVersionParamsSchema = z.object({
  name: strategyNameSchema,
  id: z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, 'version id must be a positive integer')
    .transform(Number)
    .pipe(z.number().max(2_147_483_647, 'version id is too large')),
});
