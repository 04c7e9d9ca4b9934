import { buildFixPrompt, buildRegeneratePrompt, toEpochSec } from '@ct/domain';
import type { Prompt, TaskRun } from './deps.ts';
import { fail, say, update } from './record.ts';

/*
 * The fix step: a failed attempt is counted, and the next prompt feeds its error back (the
 * same prompt after a model error, a regenerate prompt after an answer without code, a fix
 * prompt with the code after a failed run); past the task's bound it ends FAILED instead.
 */

/** Counts a failed attempt; false (and the task FAILED) once the bound is passed. */
async function nextAttempt(run: TaskRun, error: string): Promise<boolean> {
  if (run.retry + 1 > run.task.maxRetries) {
    const attempts = run.retry + 1;
    await fail(
      run,
      `Gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}. Last error: ${error}`,
    );
    return false;
  }
  run.retry += 1;
  await update(run, { retryCount: run.retry, updatedAt: toEpochSec(run.deps.now()) });
  return true;
}

/** After the model failed: the same prompt again, or null when the task ended. */
export async function askAgain(
  run: TaskRun,
  prompt: Prompt,
  error: string,
): Promise<Prompt | null> {
  if (!(await nextAttempt(run, error))) return null;
  return { ...prompt, extra: null };
}

/** After an answer without code: a prompt to write it anew, or null when the task ended. */
export async function regenerate(run: TaskRun, error: string): Promise<Prompt | null> {
  if (!(await nextAttempt(run, error))) return null;
  return {
    step: 'regenerate_prompt',
    text: buildRegeneratePrompt(run.task.prompt, error),
    history: [],
    extra: null,
  };
}

/**
 * After the code failed at `stage` (validation, or the run on the whole data): the error
 * said, then a prompt to fix the code, or null when the task ended.
 */
export async function fix(
  run: TaskRun,
  error: string,
  stage: 'validation' | 'full_run',
  written: { code: string; text: string },
): Promise<Prompt | null> {
  const { code, text } = written;
  await say(run, 'ai', 'error', error, { stage, code });
  if (!(await nextAttempt(run, error))) return null;
  return {
    step: 'fix_prompt',
    text: buildFixPrompt(error, code),
    history: [
      { role: 'user', content: run.generatePrompt },
      { role: 'assistant', content: text },
    ],
    extra: null,
  };
}
