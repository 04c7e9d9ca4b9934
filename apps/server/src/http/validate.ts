import { describeIssues } from '@ct/domain';
import type { z } from 'zod';
import { BadRequestError } from './errors.ts';

/** Parses a body or query with its zod schema from @ct/domain; a failure is a 400 naming the fields. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new BadRequestError(describeIssues(result.error.issues));
  return result.data;
}
