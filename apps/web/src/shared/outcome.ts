import { notify } from './notify';

/*
 * How a user operation (an action) ends: resolved, never thrown, with the message the user
 * was shown. The helpers show the message as the toast of its kind and answer the outcome.
 */

/**
 * `message`: what was shown to the user (null: nothing, e.g. a cancelled confirmation). An
 * action that leaves a refusal to its caller (an inline form error, a chart line that goes
 * back) answers `{ success: false, message }` without a toast, and the caller shows it.
 */
export type Outcome = { success: boolean; message: string | null };

/** Nothing happened and nothing was shown (a cancelled confirmation, a click without effect). */
export const QUIET: Outcome = { success: false, message: null };

export function done(message: string): Outcome {
  notify.success(message);
  return { success: true, message };
}

export function failed(message: string): Outcome {
  notify.error(message);
  return { success: false, message };
}

export function refused(message: string): Outcome {
  notify.warning(message);
  return { success: false, message };
}
