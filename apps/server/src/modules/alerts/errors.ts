import { CODE_ALERTS_UNPROCESSABLE, describeIssues } from '@ct/domain';
import type { z } from 'zod';
import { AppError } from '../../http/errors.ts';

/** An alert call the server cannot act on (bad field, unknown symbol, a limit, a refused URL): 422. */
export class AlertsUnprocessableError extends AppError {
  constructor(message: string) {
    super(CODE_ALERTS_UNPROCESSABLE, message, 422);
  }
}

/** Parses input with its domain schema; a failure is a 422 naming the fields. */
export function parseAlertsInput<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new AlertsUnprocessableError(describeIssues(result.error.issues));
  return result.data;
}
