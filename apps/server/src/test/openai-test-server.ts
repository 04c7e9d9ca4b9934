import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

/*
 * A local OpenAI-compatible server for tests, the benchmark and the end-to-end journeys:
 * `POST /v1/chat/completions` streams real server-sent events (`data: {chunk}`, reasoning
 * first, then content, a final chunk with `finish_reason`, `data: [DONE]`), `GET /v1/models`
 * lists models. Each chat request takes the next script from a queue (the default script
 * when it is empty), so a test can make it fail, stall, drop mid-stream, or send a huge or
 * trickling answer (`repeat`). It records every
 * request it got.
 *
 * Standalone: `node --import tsx apps/server/src/test/openai-test-server.ts --port 11434`.
 * A script with `match` is taken only by a request whose body contains that text.
 * Scripted over HTTP: `POST /__script` `{ "scripts": [script, …] }` queues answers,
 * `GET /__requests` lists the recorded requests, `POST /__reset` clears both.
 */

/** An OpenAI-style error body: `{ error: { message, type, code } }`. */
export type TestErrorBody = { message: string; type?: string; code?: string | null };

export type TestScript = {
  /** Answer this HTTP status with an OpenAI-style error body instead of a stream. */
  status?: number;
  /** The error of `status`, or of the mid-stream error chunk of `end: 'error'`. */
  error?: TestErrorBody;
  /** Reasoning pieces, streamed first. */
  reasoning?: string[];
  /** Where reasoning goes: `reasoning_content` (DeepSeek, Qwen; default) or `reasoning` (Ollama). */
  reasoningField?: 'reasoning_content' | 'reasoning';
  /** Answer pieces, streamed after the reasoning. */
  content?: string[];
  /**
   * After `content`: the answer piece `piece`, `times` more times. A huge answer (or a long
   * trickle, with `delayMs`) without a huge script; written as the client reads it.
   */
  repeat?: { piece: string; times: number };
  /** Pause before each piece, in milliseconds (default 0). */
  delayMs?: number;
  /**
   * How the stream ends after the pieces: `done` (final chunk with `finish_reason` and
   * `[DONE]`; the default), `error` (an error chunk with HTTP 200), `drop` (the connection is
   * destroyed), `stall` (nothing more is sent), `end` (the response ends without
   * `finish_reason` or `[DONE]`).
   */
  end?: 'done' | 'error' | 'drop' | 'stall' | 'end';
  /** Never answer at all: not even the response headers. */
  stallBeforeHeaders?: boolean;
  /** Send a usage chunk with `choices: null` before `[DONE]` (as some servers do). */
  usageChunk?: boolean;
  /**
   * Only a request whose body (its JSON text) contains this text takes the script; others
   * pass over it to the next one. Lets concurrent callers (AI tasks running side by side)
   * each get their own scripted sequence. Without it any request takes the script.
   */
  match?: string;
};

export type RecordedRequest = {
  method: string;
  path: string;
  /** The `Authorization` header as received. */
  authorization: string | undefined;
  /** The parsed JSON body (null when none or not JSON). */
  body: unknown;
  /** True once the client closed the connection before the answer was complete. */
  closedEarly: boolean;
  /** True once the whole answer was written. */
  finished: boolean;
};

export type OpenAiTestServer = {
  /** `http://127.0.0.1:<port>/v1`: the base URL to configure. */
  baseUrl: string;
  port: number;
  requests: RecordedRequest[];
  /** The chat requests only (`POST …/chat/completions`). */
  chats(): RecordedRequest[];
  /** Queues scripts: each chat request takes the next one. */
  script(...scripts: TestScript[]): void;
  /** The models `GET /v1/models` lists. */
  setModels(ids: string[]): void;
  reset(): void;
  close(): Promise<void>;
};

/** Splits text into small pieces the way a model streams tokens (words with their spaces). */
export function pieces(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

export const DEFAULT_REASONING =
  'The user wants a strategy. A moving-average crossover is simple and honours the contract.';

export const DEFAULT_ANSWER = [
  'Here is a **moving-average crossover** strategy:',
  '',
  '```python',
  'def main(data_array):',
  '    closes = [row[6] for row in data_array]',
  '    trades = []',
  '    for i in range(30, len(data_array)):',
  '        fast = sum(closes[i - 10:i]) / 10',
  '        slow = sum(closes[i - 30:i]) / 30',
  '        if fast > slow and not trades:',
  "            trades.append({'open_date': data_array[i][0], 'open_price': closes[i],",
  "                           'lots': 1, 'status': 'NOT'})",
  '    return trades',
  '```',
  '',
  'It buys one lot when the 10-bar average crosses above the 30-bar average.',
].join('\n');

/** Reasoning, then a markdown answer with a python code block. */
export const DEFAULT_SCRIPT: TestScript = {
  reasoning: pieces(DEFAULT_REASONING),
  content: pieces(DEFAULT_ANSWER),
};

const DEFAULT_MODELS = ['test-model', 'test-reasoner'];

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function modelOf(body: unknown): string {
  const model = (body as { model?: unknown } | null)?.model;
  return typeof model === 'string' ? model : 'test-model';
}

/** The extra provider "Lab" whose endpoint is a test server: one model, `test-model`, a key required. */
export function labProvider(baseUrl: string) {
  return {
    label: 'Lab',
    value: 'lab',
    base_url: baseUrl,
    models: [{ label: 'Test model', value: 'test-model', description: '' }],
    requires_key: true,
  };
}

/** Starts the server on 127.0.0.1 (port 0: a free one). */
export async function startOpenAiTestServer(
  options: { port?: number; host?: string; defaultScript?: TestScript; models?: string[] } = {},
): Promise<OpenAiTestServer> {
  const queue: TestScript[] = [];
  const requests: RecordedRequest[] = [];
  let models = options.models ?? DEFAULT_MODELS;
  const defaultScript = options.defaultScript ?? DEFAULT_SCRIPT;
  let sequence = 0;

  async function streamChat(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    record: RecordedRequest,
    script: TestScript,
  ): Promise<void> {
    if (script.stallBeforeHeaders) return;
    if (script.status !== undefined && script.status !== 200) {
      sendJson(res, script.status, {
        error: {
          message: script.error?.message ?? `Test error ${script.status}`,
          type: script.error?.type ?? 'invalid_request_error',
          code: script.error?.code ?? null,
        },
      });
      record.finished = true;
      return;
    }
    const id = `chatcmpl-test-${++sequence}`;
    const model = modelOf(record.body);
    const created = Math.floor(Date.now() / 1000);
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      })}\n\n`;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
    });
    res.flushHeaders();
    const write = async (text: string) => {
      if (script.delayMs) await new Promise((resolve) => setTimeout(resolve, script.delayMs));
      if (record.closedEarly) throw new Error('client went away');
      // a client that reads slowly holds the writer back: memory never holds the whole answer
      if (!res.write(text)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.on('drain', done);
          res.on('close', done);
        });
      }
    };
    try {
      res.write(chunk({ role: 'assistant', content: '' }));
      const field = script.reasoningField ?? 'reasoning_content';
      // like Qwen and Ollama: an empty `content` beside each reasoning piece
      for (const piece of script.reasoning ?? [])
        await write(chunk({ [field]: piece, content: '' }));
      for (const piece of script.content ?? []) await write(chunk({ content: piece }));
      if (script.repeat) {
        const text = chunk({ content: script.repeat.piece });
        for (let i = 0; i < script.repeat.times; i++) await write(text);
      }
      const end = script.end ?? 'done';
      if (end === 'stall') return;
      if (end === 'drop') {
        // once what was written has left, the connection breaks without an end
        res.write('', () => req.socket.destroy());
        return;
      }
      if (end === 'end') {
        res.end();
        record.finished = true;
        return;
      }
      if (end === 'error') {
        await write(
          `data: ${JSON.stringify({
            error: {
              message: script.error?.message ?? 'Test error in the stream',
              type: script.error?.type ?? 'server_error',
              code: script.error?.code ?? null,
            },
          })}\n\n`,
        );
        res.end();
        record.finished = true;
        return;
      }
      await write(chunk({}, 'stop'));
      if (script.usageChunk) {
        res.write(
          `data: ${JSON.stringify({
            id,
            object: 'chat.completion.chunk',
            created,
            model,
            choices: null,
            usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
          })}\n\n`,
        );
      }
      res.end('data: [DONE]\n\n');
      record.finished = true;
    } catch {
      // the client went away: nothing more to send
    }
  }

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const text = await readBody(req);
      if (url.pathname === '/__script' && req.method === 'POST') {
        const scripts = (parseJson(text) as { scripts?: unknown } | null)?.scripts;
        if (!Array.isArray(scripts))
          return sendJson(res, 400, { error: 'scripts: expected a list' });
        queue.push(...(scripts as TestScript[]));
        return sendJson(res, 200, { queued: queue.length });
      }
      if (url.pathname === '/__requests' && req.method === 'GET') {
        return sendJson(res, 200, { requests });
      }
      if (url.pathname === '/__reset' && req.method === 'POST') {
        queue.length = 0;
        requests.length = 0;
        return sendJson(res, 200, { reset: true });
      }
      const record: RecordedRequest = {
        method: req.method ?? '',
        path: url.pathname,
        authorization: req.headers.authorization,
        body: parseJson(text),
        closedEarly: false,
        finished: false,
      };
      requests.push(record);
      res.on('close', () => {
        if (!record.finished) record.closedEarly = true;
      });
      if (url.pathname === '/v1/models' && req.method === 'GET') {
        record.finished = true;
        return sendJson(res, 200, {
          object: 'list',
          data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'test' })),
        });
      }
      if (url.pathname === '/v1/chat/completions' && req.method === 'POST') {
        const index = queue.findIndex((s) => s.match === undefined || text.includes(s.match));
        const script = index === -1 ? defaultScript : (queue.splice(index, 1)[0] ?? defaultScript);
        return streamChat(req, res, record, script);
      }
      record.finished = true;
      return sendJson(res, 404, {
        error: { message: `Unknown path ${url.pathname}`, type: 'invalid_request_error' },
      });
    })();
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://${host}:${port}/v1`,
    port,
    requests,
    chats: () => requests.filter((r) => r.path.endsWith('/chat/completions')),
    script: (...scripts) => queue.push(...scripts),
    setModels: (ids) => {
      models = ids;
    },
    reset: () => {
      queue.length = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// standalone: `--port N` (default 11434), `--host H`
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string) => {
    const index = process.argv.indexOf(`--${name}`);
    return index === -1 ? undefined : process.argv[index + 1];
  };
  const server = await startOpenAiTestServer({
    port: Number(arg('port') ?? 11434),
    host: arg('host') ?? '127.0.0.1',
  });
  process.stdout.write(`OpenAI-compatible test server at ${server.baseUrl}\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
