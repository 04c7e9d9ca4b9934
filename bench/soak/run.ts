import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Centrifuge } from 'centrifuge';
import WebSocket from 'ws';
import { REPO_ROOT, startChild, stopChild } from '../support/server.ts';

/*
 * The soak benchmark (issue 18; `npm run bench -- --only=soak [--minutes=30] [--users=4]`,
 * not in the default set): the real server (apps/server/src/main.ts on PGlite in a temporary
 * DATA_DIR) with simulated users, each holding a live connection that receives ticks, placing
 * and closing market orders, running backtests in the sandbox and chatting through the local
 * OpenAI-compatible test server. Every minute it records the server's memory (RSS and, from
 * /metrics, heap and event-loop lag), each activity's p99 latency and error count, to
 * artifacts/soak/<run>.jsonl; the verdict is the RSS growth after the warm-up (< 10 %).
 */

export type SoakOptions = {
  minutes: number;
  /** Minutes left out of the growth verdict (the server warms its caches and pools). */
  warmupMinutes: number;
  users: number;
  /** Each user's pace: an order round trip (open + close) every `orderEveryMs`. */
  orderEveryMs: number;
  backtestEveryMs: number;
  chatEveryMs: number;
};

export function defaultSoakOptions(minutes: number): SoakOptions {
  return {
    minutes,
    warmupMinutes: Math.max(1, Math.round(minutes / 6)),
    users: 4,
    orderEveryMs: 1000,
    backtestEveryMs: 20_000,
    chatEveryMs: 15_000,
  };
}

type Activity = 'order' | 'close' | 'backtest' | 'chat';
const ACTIVITIES: Activity[] = ['order', 'close', 'backtest', 'chat'];

/** One minute of the run. */
export type SoakMinute = {
  minute: number;
  rssMb: number;
  heapUsedMb: number | null;
  eventLoopLagP99Ms: number | null;
  liveConnections: number | null;
  ticksReceived: number;
  /** Per activity: how many, p99 ms, errors. */
  activities: Record<Activity, { count: number; p99Ms: number; errors: number }>;
};

export type SoakResult = {
  options: SoakOptions;
  minutes: SoakMinute[];
  /** RSS of the last minute against the end of the warm-up, in percent. */
  rssGrowthPercent: number;
  /** The verdict: RSS growth under 10 %. Errors are reported next to it. */
  passed: boolean;
  /** Failed requests per activity over the whole run. */
  errors: Record<Activity, number>;
  file: string;
};

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Resident memory of a process in MB, from /proc. */
function rssMb(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** A metric's value in Prometheus text (`name value` or `name{…} value`), null when absent. */
function metric(text: string, name: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? null : Number(line.slice(name.length + 1));
}

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args[0]} failed: ${stderr}`)),
    );
  });
}

type User = { cookie: string; uuid: string; token: string };

class Recorder {
  private latencies = new Map<Activity, number[]>();
  private errors = new Map<Activity, number>();
  ticks = 0;
  readonly errorSamples: string[] = [];

  ok(activity: Activity, ms: number): void {
    const list = this.latencies.get(activity) ?? [];
    list.push(ms);
    this.latencies.set(activity, list);
  }

  fail(activity: Activity, why: string): void {
    this.errors.set(activity, (this.errors.get(activity) ?? 0) + 1);
    if (this.errorSamples.length < 20) this.errorSamples.push(`${activity}: ${why.slice(0, 600)}`);
  }

  /** This minute's figures; starts the next minute. */
  take(): Pick<SoakMinute, 'activities' | 'ticksReceived'> {
    const activities = {} as SoakMinute['activities'];
    for (const a of ACTIVITIES) {
      const list = this.latencies.get(a) ?? [];
      activities[a] = {
        count: list.length,
        p99Ms: Math.round(percentile(list, 99) * 10) / 10,
        errors: this.errors.get(a) ?? 0,
      };
    }
    const ticksReceived = this.ticks;
    this.latencies = new Map();
    this.errors = new Map();
    this.ticks = 0;
    return { activities, ticksReceived };
  }
}

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-bench-soak-'));
  const outDir = path.join(REPO_ROOT, 'artifacts/soak');
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `soak-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`);
  let upstream: ChildProcess | undefined;
  let server: ChildProcess | undefined;
  const clients: Centrifuge[] = [];
  const timers: NodeJS.Timeout[] = [];
  let stopping = false;
  try {
    const test = await startChild(
      ['apps/server/src/test/openai-test-server.ts', '--port', '0'],
      {},
      /test server at (http:\/\/\S+\/v1)/,
    );
    upstream = test.child;
    const aiBase = test.match[1] ?? '';
    const env = { DATA_DIR: root, LOG_LEVEL: 'warn' };
    const emails = Array.from({ length: options.users }, (_, i) => `soak${i + 1}@example.com`);
    for (const [i, email] of emails.entries()) {
      await runCli(
        [
          'apps/server/src/cli/user-create.ts',
          '--email',
          email,
          '--password',
          'soak-password',
          '--nick',
          `Soak ${i + 1}`,
          '--accounts',
          '1',
        ],
        env,
      );
    }
    const product = await startChild(
      ['apps/server/src/main.ts'],
      {
        ...env,
        PORT: '0',
        WEB_DIST: path.join(root, 'no-web'),
        OLLAMA_BASE_URL: aiBase,
        AI_CHAT_RATE_LIMIT: '100000',
      },
      /running at (http:\/\/[^\s]+)/,
    );
    server = product.child;
    const origin = product.match[1] ?? '';
    const call = async (method: string, url: string, body?: unknown, cookie?: string) => {
      const res = await fetch(`${origin}${url}`, {
        method,
        headers: {
          origin,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(cookie ? { cookie: `ct_sid=${cookie}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return res;
    };

    const users: User[] = [];
    for (const email of emails) {
      const res = await call('POST', '/user/api/v1/account/login', {
        channel: 1,
        login_type: 2,
        user_name: email,
        password: 'soak-password',
        device: 1,
      });
      const cookie = /ct_sid=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
      const body = (await res.json()) as { data: { traders: { uuid: string; token: string }[] }[] };
      const trader = body.data[0]?.traders[0];
      if (!cookie || !trader) throw new Error(`login of ${email} failed`);
      const saved = await call(
        'POST',
        '/api/settings',
        { provider: 'ollama', baseURL: aiBase, model: 'test-model', apiKey: '' },
        cookie,
      );
      if (!saved.ok) throw new Error(`settings refused: ${await saved.text()}`);
      users.push({ cookie, uuid: trader.uuid, token: trader.token });
    }
    const templateRes = await call('GET', '/api/strategy/template', undefined, users[0]?.cookie);
    const { code: template } = (await templateRes.json()) as { code: string };
    const bars = Array.from({ length: 200 }, (_, i) => {
      const d = new Date(Date.UTC(2024, 0, 1) + i * 86_400_000);
      const close = 100 + 10 * Math.sin(i / 8);
      const day = `${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}`;
      return {
        Time: `${day} 00:00:00`,
        Open: close - 0.5,
        High: close + 1,
        Low: close - 1,
        Close: close,
        Volume: 1000,
      };
    });

    const recorder = new Recorder();
    const wsUrl = `${origin.replace(/^http/, 'ws')}/connection/websocket`;
    for (let i = 0; i < users.length; i++) {
      const client = new Centrifuge(wsUrl, { websocket: WebSocket, data: { type: 1 } });
      for (const symbol of ['BTCUSDT', 'ETHUSDT', 'XAUUSD']) {
        client.newSubscription(`public:${symbol}`).on('publication', () => (recorder.ticks += 1));
        client.getSubscription(`public:${symbol}`)?.subscribe();
      }
      client.connect();
      clients.push(client);
    }

    /** Runs `step` every `everyMs` (first after a random part of it) until the run stops. */
    const every = (everyMs: number, step: () => Promise<void>) => {
      const loop = async () => {
        if (stopping) return;
        const started = performance.now();
        await step().catch(() => undefined);
        if (stopping) return;
        timers.push(setTimeout(loop, Math.max(0, everyMs - (performance.now() - started))));
      };
      timers.push(setTimeout(loop, Math.random() * everyMs));
    };
    const timed = async (activity: Activity, send: () => Promise<Response>) => {
      const sent = performance.now();
      try {
        const res = await send();
        const text = await res.text();
        const ms = performance.now() - sent;
        const body = JSON.parse(text) as { code?: number; error?: unknown };
        const ok =
          res.ok &&
          (body.code === undefined || body.code === 0) &&
          (body.error === undefined || body.error === null);
        if (ok) recorder.ok(activity, ms);
        else recorder.fail(activity, `${res.status} ${text}`);
        return ok ? (body as Record<string, unknown>) : null;
      } catch (error) {
        recorder.fail(activity, (error as Error).message);
        return null;
      }
    };

    for (const [i, user] of users.entries()) {
      const creds = { uuid: user.uuid, token: user.token, channel: 1, device: 1 };
      every(options.orderEveryMs, async () => {
        const symbol = i % 2 === 0 ? 'BTCUSDT' : 'XAUUSD';
        const opened = await timed('order', () =>
          call(
            'POST',
            '/trading/order/open',
            { ...creds, symbol, cmd: 1, volume: 0.01 },
            user.cookie,
          ),
        );
        const orderId = (opened?.data as { order?: { orderId?: string } } | undefined)?.order
          ?.orderId;
        if (!orderId) return;
        await timed('close', () =>
          call('POST', '/trading/order/close', { ...creds, orderId, volume: 0.01 }, user.cookie),
        );
      });
      every(options.backtestEveryMs, async () => {
        await timed('backtest', () =>
          call(
            'POST',
            '/api/backtest/code',
            { code: template, filename: 'soak.py', historical_data: bars },
            user.cookie,
          ),
        );
      });
      every(options.chatEveryMs, async () => {
        const sent = performance.now();
        try {
          const res = await call(
            'POST',
            '/api/ai/chat',
            { messages: [{ role: 'user', content: 'Hello' }] },
            user.cookie,
          );
          const text = await res.text();
          if (res.ok && text.includes('event: done')) recorder.ok('chat', performance.now() - sent);
          else recorder.fail('chat', `${res.status} ${text.slice(-200)}`);
        } catch (error) {
          recorder.fail('chat', (error as Error).message);
        }
      });
    }

    const minutes: SoakMinute[] = [];
    let rssSamples: number[] = [];
    const sampler = setInterval(() => rssSamples.push(rssMb(server?.pid)), 5000);
    timers.push(sampler);
    for (let minute = 1; minute <= options.minutes; minute++) {
      await new Promise((resolve) => setTimeout(resolve, 60_000));
      rssSamples.push(rssMb(server?.pid));
      const metricsText = await (await call('GET', '/metrics')).text().catch(() => '');
      const heap = metric(metricsText, 'nodejs_heap_size_used_bytes');
      const lag = metric(metricsText, 'nodejs_eventloop_lag_p99_seconds');
      const row: SoakMinute = {
        minute,
        rssMb: Math.round((rssSamples.reduce((a, b) => a + b, 0) / rssSamples.length) * 10) / 10,
        heapUsedMb: heap === null ? null : Math.round((heap / 2 ** 20) * 10) / 10,
        eventLoopLagP99Ms: lag === null ? null : Math.round(lag * 1000 * 10) / 10,
        liveConnections: metric(metricsText, 'ct_live_connections'),
        ...recorder.take(),
      };
      rssSamples = [];
      minutes.push(row);
      fs.appendFileSync(file, `${JSON.stringify(row)}\n`);
      console.log(soakMinuteLine(row));
    }
    stopping = true;
    const baseline = minutes[Math.min(options.warmupMinutes, minutes.length) - 1]?.rssMb ?? 0;
    const last = minutes.at(-1)?.rssMb ?? 0;
    const rssGrowthPercent = baseline > 0 ? (100 * (last - baseline)) / baseline : 0;
    const errors = minutes.reduce(
      (sum, m) => sum + ACTIVITIES.reduce((s, a) => s + m.activities[a].errors, 0),
      0,
    );
    const errorsBy = Object.fromEntries(
      ACTIVITIES.map((a) => [a, minutes.reduce((sum, m) => sum + m.activities[a].errors, 0)]),
    ) as Record<Activity, number>;
    // distinct causes only: the same refusal repeated says nothing more
    const samples = [...new Set(recorder.errorSamples)];
    if (errors > 0) console.log(`error samples:\n  ${samples.join('\n  ')}`);
    const result: SoakResult = {
      options,
      minutes,
      rssGrowthPercent,
      passed: rssGrowthPercent < 10,
      errors: errorsBy,
      file,
    };
    const verdict = { rssGrowthPercent, passed: result.passed, errors: errorsBy, samples, options };
    fs.appendFileSync(file, `${JSON.stringify({ verdict })}\n`);
    return result;
  } finally {
    stopping = true;
    for (const timer of timers) clearTimeout(timer);
    for (const client of clients) client.disconnect();
    await stopChild(server);
    await stopChild(upstream);
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function soakMinuteLine(m: SoakMinute): string {
  const a = m.activities;
  const cell = (x: { count: number; p99Ms: number; errors: number }) =>
    `${x.count} / ${x.p99Ms} / ${x.errors}`;
  return `| ${m.minute} | ${m.rssMb} | ${m.heapUsedMb ?? '–'} | ${m.eventLoopLagP99Ms ?? '–'} | ${m.liveConnections ?? '–'} | ${m.ticksReceived} | ${cell(a.order)} | ${cell(a.close)} | ${cell(a.backtest)} | ${cell(a.chat)} |`;
}

/** The table header printed before the minutes, and the verdict after them. */
export const SOAK_HEADER = [
  '| minute | RSS MB | heap MB | loop lag p99 ms | live conns | ticks | orders n / p99 ms / err | closes | backtests | chats |',
  '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
];

export function soakVerdict(r: SoakResult): string[] {
  const warm = r.options.warmupMinutes;
  const errors = ACTIVITIES.map((a) => `${a} ${r.errors[a]}`).join(', ');
  return [
    `RSS growth after the ${warm}-minute warm-up: ${r.rssGrowthPercent.toFixed(1)} % (limit 10 %): ${r.passed ? 'PASS' : 'FAIL'}`,
    `Failed requests: ${errors}`,
    `Per-minute records: ${path.relative(REPO_ROOT, r.file)}`,
  ];
}
