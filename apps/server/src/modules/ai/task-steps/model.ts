import { normalizeBaseUrl } from '@ct/domain';
import type { AiTaskRow } from '../../../db/schema.ts';
import { MSG_NO_API_KEY, type PreparedChat } from '../chat-service.ts';
import { SealedSecretError } from '../key-box.ts';
import { TaskStopped, taskKeyAssociatedData, type TaskRun, type TaskRunnerDeps } from './deps.ts';
import { fail, say } from './record.ts';

/*
 * The model step of an AI strategy task: the task's provider, model and key (checked again
 * when it runs; a task that cannot reach its model ends FAILED), and one answer.
 */

export const SYSTEM = `You write Python trading strategies for a backtester. You follow the strategy contract exactly and answer with the complete code in one \`\`\`python code block.`;

export type ModelAnswer =
  | { ok: true; text: string; reasoningChars: number }
  /** `kept`: what arrived before an answer was cut or timed out (within the size limit). */
  | { ok: false; error: string; kept: string; why: 'too_long' | 'timeout' | null };

/** The provider, model and key a task's chats go to. */
export type TaskChat = Omit<PreparedChat, 'messages'>;

/** Provider, model and key of a task, checked again at run time; a string says why not. */
export async function prepareChat(
  deps: TaskRunnerDeps,
  task: AiTaskRow,
): Promise<TaskChat | string> {
  const provider = deps.providers.find(task.provider);
  if (!provider) return `Unknown service provider: ${task.provider}`;
  if (normalizeBaseUrl(task.baseUrl) !== provider.base_url) {
    return `API endpoint not allowed: ${task.baseUrl}. The endpoint of ${provider.label} is ${provider.base_url}`;
  }
  let apiKey = '';
  if (task.apiKeyEnc) {
    try {
      apiKey = deps.keys.open(task.apiKeyEnc, taskKeyAssociatedData(task.userId));
    } catch (error) {
      if (!(error instanceof SealedSecretError)) throw error;
      return 'The API key of this task cannot be opened any more (the server key changed)';
    }
  } else {
    const saved = await deps.settings.forChat(task.userId);
    // a saved key goes only to the provider it was saved for
    if (saved.provider === task.provider) apiKey = saved.apiKey;
  }
  if (provider.requires_key && apiKey === '') return MSG_NO_API_KEY;
  return { provider, model: task.model, apiKey: apiKey === '' ? provider.value : apiKey };
}

/** The task's provider, model and key; null (and the task FAILED) when it has none usable. */
export async function openChat(run: TaskRun): Promise<TaskChat | null> {
  const prepared = await prepareChat(run.deps, run.task);
  if (typeof prepared !== 'string') return prepared;
  await say(run, 'ai', 'error', prepared, { stage: 'provider' });
  await fail(run, prepared);
  return null;
}

/**
 * One model answer through the chat's client, within the task's model timeout and the
 * answer size limit: past either the request is aborted and what arrived is kept.
 */
export async function callModel(
  deps: TaskRunnerDeps,
  chat: PreparedChat,
  signal: AbortSignal,
  timing: { modelMs: number },
): Promise<ModelAnswer> {
  // the chat never sends more than the size limit: `text` stays within it
  const text: string[] = [];
  let reasoningChars = 0;
  let error: { code: string; message: string } | null = null;
  let done = false;
  const started = performance.now();
  try {
    await deps.chat.stream(
      chat,
      (event) => {
        if (event.event === 'content') text.push(event.data.text);
        else if (event.event === 'reasoning') reasoningChars += event.data.text.length;
        else if (event.event === 'error') error = event.data;
        else done = true;
      },
      signal,
      { totalTimeoutMs: deps.config.modelTimeoutMs },
    );
  } finally {
    timing.modelMs += performance.now() - started;
  }
  if (signal.aborted) throw new TaskStopped();
  const kept = text.join('');
  const failed = error as { code: string; message: string } | null;
  if (failed !== null) {
    const why = failed.code === 'too_long' || failed.code === 'timeout' ? failed.code : null;
    return { ok: false, error: failed.message, kept, why };
  }
  if (!done) {
    return {
      ok: false,
      error: `${chat.provider.label} ended without an answer.`,
      kept,
      why: null,
    };
  }
  return { ok: true, text: kept, reasoningChars };
}
