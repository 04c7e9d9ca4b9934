import { CODE_CHARTS_UNPROCESSABLE, describeIssues } from '@ct/domain';
import type { z } from 'zod';
import { AppError } from '../../http/errors.ts';

/** A chart call the server cannot act on (bad field, unknown symbol, a limit reached): 422. */
export class ChartsUnprocessableError extends AppError {
  constructor(message: string) {
    super(CODE_CHARTS_UNPROCESSABLE, message, 422);
  }
}

/** Parses input with its domain schema; a failure is a 422 naming the fields, FastAPI-style. */
export function parseChartsInput<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ChartsUnprocessableError(describeIssues(result.error.issues));
  return result.data;
}
