import { z } from 'zod';

/** Shape of trading and general responses: `{ code, msg, data }`, code 0 is success. */
export const envelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.number().int(), msg: z.string(), data });

export type Envelope<T> = { code: number; msg: string; data: T };

/** Builds a success envelope. */
export function ok<T>(data: T, msg = 'success'): Envelope<T> {
  return { code: 0, msg, data };
}

/** Builds a failure envelope with `data: null`. */
export function fail(code: number, msg: string): Envelope<null> {
  return { code, msg, data: null };
}

/** Turns zod issues into one readable sentence naming the fields at fault. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.length > 0 ? issue.path.join('.') : 'body';
      return `${path}: ${issue.message}`;
    })
    .join('; ');
}
