import {
  CODE_AI_TOO_LARGE,
  CODE_AI_UNPROCESSABLE,
  CODE_RATE_LIMITED,
  describeIssues,
} from '@ct/domain';
import type { z } from 'zod';
import { AppError } from '../../http/errors.ts';

/** A request the AI calls cannot act on (bad field, unknown provider, URL not allowed): 422. */
export class UnprocessableError extends AppError {
  constructor(message: string) {
    super(CODE_AI_UNPROCESSABLE, message, 422);
  }
}

/** A chat request over the size limits: 413. */
export class TooLargeError extends AppError {
  constructor(message: string) {
    super(CODE_AI_TOO_LARGE, message, 413);
  }
}

/** A new AI task past the user's bound of waiting and running tasks: 429, as the chat's limit. */
export class TooManyTasksError extends AppError {
  constructor(max: number) {
    super(
      CODE_RATE_LIMITED,
      `You already have ${max} AI tasks waiting or running: at most ${max} per user. Wait for one to finish, or delete one.`,
      429,
    );
  }
}

/** Parses a body with its domain schema; a failure is a 422 naming the fields, FastAPI-style. */
export function parseAiInput<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new UnprocessableError(describeIssues(result.error.issues));
  return result.data;
}
