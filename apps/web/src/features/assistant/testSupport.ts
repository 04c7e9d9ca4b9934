import type { AiProvider, ApiSettings } from '@ct/domain';
import { vi } from 'vitest';

export const PROVIDERS: AiProvider[] = [
  {
    label: 'Qwen (DashScope)',
    value: 'qwen',
    base_url: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    models: [
      { label: 'qwen-plus', value: 'qwen-plus', description: 'Balanced' },
      { label: 'qwen-max', value: 'qwen-max', description: 'Most capable' },
    ],
    requires_key: true,
  },
  {
    label: 'DeepSeek',
    value: 'deepseek',
    base_url: 'https://api.deepseek.com',
    models: [
      { label: 'deepseek-chat', value: 'deepseek-chat', description: 'Chat' },
      { label: 'deepseek-reasoner', value: 'deepseek-reasoner', description: 'Reasoning' },
    ],
    requires_key: true,
  },
  {
    label: 'Ollama (local)',
    value: 'ollama',
    base_url: 'http://127.0.0.1:11434/v1',
    models: [{ label: 'qwen3:8b', value: 'qwen3:8b', description: 'Local' }],
    requires_key: false,
  },
];

export const QWEN_NO_KEY: ApiSettings = {
  apiKey: '',
  provider: 'qwen',
  model: 'qwen-plus',
  baseURL: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
};

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** A server-sent event stream of the given `[event, data]` pairs. */
export function sse(events: [string, unknown][]): Response {
  const text = events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of text) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

type Route = (init: RequestInit | undefined) => Response | Promise<Response>;

/** Stubs fetch with answers by method and path; other calls stay pending. */
export function stubServer(routes: Record<string, Route>) {
  const calls: { key: string; body: unknown }[] = [];
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    calls.push({ key, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const route = routes[key];
    return route ? Promise.resolve(route(init)) : new Promise<Response>(() => {});
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, called: (key: string) => calls.filter((c) => c.key === key) };
}
