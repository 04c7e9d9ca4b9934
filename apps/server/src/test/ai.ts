import { aiTaskSchema, parseChatEvent, type AiTask, type ChatEvent } from '@ct/domain';
import { eq } from 'drizzle-orm';
import { jobs, type AiTaskRow } from '../db/schema.ts';
import type { Db } from '../db/types.ts';
import { enqueueJobs } from '../modules/jobs/store.ts';
import { taskBatchKey, taskJob } from '../modules/ai/tasks-store.ts';
import type { caller } from './backtest.ts';

export type ChatReply =
  | { status: number; stream: false; body: { code: number; msg: string; detail: string } }
  | { status: number; stream: true; events: ChatEvent[] };

/**
 * POSTs a chat to a listening server and reads the whole answer: the events of a stream
 * (each checked against the domain's event schemas), or the JSON of a refusal.
 * `onEvent` sees each event as it arrives (a test may abort from there).
 */
export async function postChat(
  origin: string,
  cookie: string,
  body: unknown,
  options: { signal?: AbortSignal; onEvent?: (event: ChatEvent) => void } = {},
): Promise<ChatReply> {
  const res = await fetch(`${origin}/api/ai/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `ct_sid=${cookie}` },
    body: JSON.stringify(body),
    signal: options.signal,
  });
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    return { status: res.status, stream: false, body: (await res.json()) as never };
  }
  const events: ChatEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = res.body?.getReader();
  if (!reader) throw new Error('no body');
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const lines = block.split('\n').filter((line) => !line.startsWith(':'));
        if (lines.length === 0) continue;
        const name = lines.find((l) => l.startsWith('event: '))?.slice(7);
        const data = lines.find((l) => l.startsWith('data: '))?.slice(6) ?? '';
        const event = parseChatEvent(name, data);
        if (!event) throw new Error(`not a chat event: ${block}`);
        events.push(event);
        options.onEvent?.(event);
      }
    }
  } catch (error) {
    if (!options.signal?.aborted) throw error;
  }
  return { status: res.status, stream: true, events };
}

/** The text of all events of one kind, joined. */
export function textOf(events: ChatEvent[], kind: 'reasoning' | 'content'): string {
  return events.map((e) => (e.event === kind ? e.data.text : '')).join('');
}

/**
 * Tests: the jobs of tasks stored straight in the database (as an install leaves them):
 * queued, or held by `held.owner` under a lease until `held.untilMs` (a worker that died).
 */
export async function queueTaskJobs(
  db: Db,
  tasks: readonly Pick<AiTaskRow, 'id' | 'userId'>[],
  nowMs: number,
  held?: { owner: string; untilMs: number },
): Promise<void> {
  await enqueueJobs(db, tasks.map(taskJob), nowMs);
  if (!held) return;
  for (const task of tasks) {
    await db
      .update(jobs)
      .set({
        state: 'active',
        attempts: 1,
        leaseOwner: held.owner,
        leaseUntilMs: held.untilMs,
        startedMs: nowMs,
      })
      .where(eq(jobs.batchKey, taskBatchKey(task.id)));
  }
}

/**
 * Polls GET /api/ai/strategy/{id} as the caller's user until the task is COMPLETED or
 * FAILED (no sleeps: a deadline); throws with the last view when it passes.
 */
export async function finishedTask(
  as: ReturnType<typeof caller>,
  id: number,
  deadlineMs = 60_000,
): Promise<AiTask> {
  let last: AiTask | null = null;
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    const res = await as('GET', `/api/ai/strategy/${id}`);
    if (res.statusCode !== 200) throw new Error(`task ${id}: ${res.statusCode} ${res.body}`);
    last = aiTaskSchema.parse(res.json());
    if (last.status === 'COMPLETED' || last.status === 'FAILED') return last;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`task ${id} did not finish: ${JSON.stringify(last)}`);
}

/** The extra OpenAI-compatible provider "Lab" of the AI tests, answering at `baseUrl` (a key required). */
export function labProvider(baseUrl: string) {
  return {
    label: 'Lab',
    value: 'lab',
    base_url: baseUrl,
    models: [{ label: 'Test model', value: 'test-model', description: '' }],
    requires_key: true,
  };
}
