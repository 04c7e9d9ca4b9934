import { z } from 'zod';
import { integerInputSchema } from './text.ts';

/** How far a page query may skip by default: far beyond any list a user keeps. */
export const MAX_PAGE_SKIP = 1_000_000_000;

/**
 * The query of a paged list (`?skip&limit`): both integers (numbers or their text), `skip`
 * from 0 to `maxSkip`, `limit` from 1 to `max`, each with the message that names its bound;
 * an absent one takes its default (0 and `default`).
 */
export function pageQuerySchema(options: { max: number; default: number; maxSkip?: number }) {
  const maxSkip = options.maxSkip ?? MAX_PAGE_SKIP;
  return z.object({
    skip: integerInputSchema('skip')
      .pipe(
        z
          .number()
          .int()
          .min(0, 'skip must be at least 0')
          .max(maxSkip, `skip must be at most ${maxSkip}`),
      )
      .optional()
      .default(0),
    limit: integerInputSchema('limit')
      .pipe(
        z
          .number()
          .int()
          .min(1, 'limit must be at least 1')
          .max(options.max, `limit must be at most ${options.max}`),
      )
      .optional()
      .default(options.default),
  });
}
