import { extractPythonCode } from '@ct/domain';
import type { PreparedChat } from '../chat-service.ts';
import type { Prompt, TaskRun } from './deps.ts';
import { SYSTEM, callModel, type TaskChat } from './model.ts';
import { say } from './record.ts';

/*
 * The writing step: the prompt sent to the model with the conversation it continues, the
 * answer kept in the task's conversation (what arrived of a cut one too), and the Python code
 * taken out of it. A failure says at which stage: the model's, or an answer without code.
 */

export type Written =
  | { ok: true; code: string; text: string }
  | { ok: false; stage: 'model' | 'extract'; error: string };

/** The model's answer to the prompt and the code in it. */
export async function write(run: TaskRun, chat: TaskChat, prompt: Prompt): Promise<Written> {
  const messages: PreparedChat['messages'] = [
    { role: 'system', content: SYSTEM },
    ...prompt.history,
    { role: 'user', content: prompt.text },
  ];
  const answer = await callModel(run.deps, { ...chat, messages }, run.signal, run.timing);
  if (!answer.ok) {
    if (answer.kept !== '' && answer.why !== null) {
      // what arrived stays readable in the conversation; the note below says why it ends
      await say(run, 'ai', 'ai_response', answer.kept, {
        model: chat.model,
        provider: chat.provider.value,
        incomplete: answer.why,
      });
    }
    await say(run, 'ai', 'error', answer.error, { stage: 'model' });
    return { ok: false, stage: 'model', error: answer.error };
  }
  await say(run, 'ai', 'ai_response', answer.text, {
    model: chat.model,
    provider: chat.provider.value,
    reasoning_chars: answer.reasoningChars,
  });
  const code = extractPythonCode(answer.text);
  if (code === null) {
    const error = 'The answer has no Python code block defining main(data_array).';
    await say(run, 'ai', 'error', error, { stage: 'extract' });
    return { ok: false, stage: 'extract', error };
  }
  return { ok: true, code, text: answer.text };
}
