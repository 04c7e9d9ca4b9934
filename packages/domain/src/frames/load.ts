import { z } from 'zod';

/**
 * The performance page's load control (docs/api.md): the feed publishes extra ticks of a
 * few symbols for a bounded time, so the browser pipeline can be driven at 20, 100 and 500
 * ticks per second per symbol.
 */
export const FEED_LOAD_LIMITS = {
  maxSymbols: 5,
  maxTicksPerSecond: 500,
  maxDurationSeconds: 120,
} as const;

/** The rates the performance page offers, in ticks per second per symbol. */
export const FEED_LOAD_RATES = [20, 100, 500] as const;

export const feedLoadRequestSchema = z.object({
  symbols: z
    .array(z.string().min(1).max(64))
    .min(1)
    .max(FEED_LOAD_LIMITS.maxSymbols)
    .refine((list) => new Set(list).size === list.length, 'symbols must differ'),
  ticksPerSecond: z.number().int().min(1).max(FEED_LOAD_LIMITS.maxTicksPerSecond),
  durationSeconds: z.number().int().min(1).max(FEED_LOAD_LIMITS.maxDurationSeconds),
});
export type FeedLoadRequest = z.infer<typeof feedLoadRequestSchema>;

/** The load running now (null: none); `until` epoch ms; `published` extra ticks so far. */
export const feedLoadStatusSchema = z.object({
  load: z
    .object({
      symbols: z.array(z.string()),
      ticksPerSecond: z.number(),
      until: z.number(),
      published: z.number(),
    })
    .nullable(),
});
export type FeedLoadStatus = z.infer<typeof feedLoadStatusSchema>;

/** How many ticks are due after `elapsedMs` at `rate` per second, with `carry` left over. */
export function ticksDue(
  rate: number,
  elapsedMs: number,
  carry: number,
): { due: number; carry: number } {
  const exact = carry + (rate * Math.max(0, elapsedMs)) / 1000;
  const due = Math.floor(exact);
  return { due, carry: exact - due };
}
