/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * The browser benchmark (`npm run bench -- --only=browser`): the product as users get it
 * (`npm start`, with MARKET_LOAD_CONTROL=1), driven by Debian's headless Chromium.
 *
 * - the workspace with 4 live charts and the open positions table while the feed publishes
 *   20 ticks/s per symbol, and the performance page at 100 ticks/s per symbol, each for
 *   30 s: long tasks over 50 ms (count, total), main-thread busy share (CDP TaskDuration),
 *   frame-time p99 (requestAnimationFrame) and JS heap growth;
 * - the JavaScript transferred (compressed) before the first drawn chart, with its files;
 * - the performance page's preset test (each preset for 10 s at 100 ticks/s).
 * Figures are measured, never asserted.
 */

const REPO_ROOT = new URL('../..', import.meta.url).pathname;
const DEMO_EMAIL = 'demo@example.com';

export type Scenario = {
  name: string;
  seconds: number;
  ticksPerSecond: number;
  longTasks: number;
  longTaskMs: number;
  busyShare: number;
  frameP99Ms: number;
  frames: number;
  heapStartMb: number;
  heapEndMb: number;
  messages: number;
};

export type BrowserBench = {
  scenarios: Scenario[];
  initialJs: { totalKb: number; files: { name: string; kb: number }[] };
  presets: string[][];
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function startProduct(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const { NODE_ENV: _mode, ...env } = process.env;
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: REPO_ROOT,
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      MARKET_LOAD_CONTROL: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve({ child, url: match[1] });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`product exited (${code}):\n${output}`)));
  });
}

function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
}

async function login(page: Page, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(DEMO_EMAIL);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
  await page.waitForURL(/\/desktop/, { timeout: 60_000 });
}

/** Runs the page's own fetch with the stored session (cookie and identity headers). */
function api(page: Page, method: string, url: string, body?: unknown): Promise<unknown> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const res = await fetch(url, {
        method,
        headers: {
          'content-type': 'application/json',
          'x-user-id': localStorage.getItem('userId') ?? '',
          'x-user-name': localStorage.getItem('userName') ?? '',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return res.json() as Promise<unknown>;
    },
    { method, url, body },
  );
}

// Measures in the page: long tasks, frame times and live messages taken in.
const PROBE = `(() => {
  const probe = { longTasks: 0, longTaskMs: 0, frameTimes: [], last: performance.now() };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) { probe.longTasks += 1; probe.longTaskMs += entry.duration; }
  }).observe({ type: 'longtask', buffered: false });
  const frame = (t) => { probe.frameTimes.push(t - probe.last); probe.last = t; requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  window.__benchProbe = probe;
})()`;

async function measure(
  page: Page,
  name: string,
  seconds: number,
  ticksPerSecond: number,
): Promise<Scenario> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () => {
    const { metrics: list } = (await cdp.send('Performance.getMetrics')) as {
      metrics: { name: string; value: number }[];
    };
    return Object.fromEntries(list.map((m) => [m.name, m.value]));
  };
  await cdp.send('HeapProfiler.collectGarbage');
  const before = await metrics();
  // WebSocket messages the page received (the live socket exists already: CDP sees it)
  const ws = { messages: 0 };
  await cdp.send('Network.enable');
  cdp.on('Network.webSocketFrameReceived', () => (ws.messages += 1));
  await page.evaluate(PROBE);
  const started = Date.now();
  await page.waitForTimeout(seconds * 1000);
  const wall = (Date.now() - started) / 1000;
  const probe = (await page.evaluate(() => {
    const p = (
      window as unknown as {
        __benchProbe: { longTasks: number; longTaskMs: number; frameTimes: number[] };
      }
    ).__benchProbe;
    return { longTasks: p.longTasks, longTaskMs: p.longTaskMs, frameTimes: p.frameTimes.slice(1) };
  })) as { longTasks: number; longTaskMs: number; frameTimes: number[] };
  await cdp.send('HeapProfiler.collectGarbage');
  const after = await metrics();
  const sorted = [...probe.frameTimes].sort((a, b) => a - b);
  const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
  const mb = (bytes: number | undefined) => Math.round(((bytes ?? 0) / 1_048_576) * 10) / 10;
  await cdp.detach();
  return {
    name,
    seconds: Math.round(wall),
    ticksPerSecond,
    longTasks: probe.longTasks,
    longTaskMs: Math.round(probe.longTaskMs),
    busyShare: ((after.TaskDuration ?? 0) - (before.TaskDuration ?? 0)) / wall,
    frameP99Ms: Math.round(p99 * 10) / 10,
    frames: probe.frameTimes.length,
    heapStartMb: mb(before.JSHeapUsedSize),
    heapEndMb: mb(after.JSHeapUsedSize),
    messages: ws.messages,
  };
}

/** JavaScript (compressed bytes on the wire) loaded before the first chart is drawn. */
async function initialJs(context: BrowserContext): Promise<BrowserBench['initialJs']> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const scripts = new Map<string, string>();
  const sizes = new Map<string, number>();
  cdp.on(
    'Network.responseReceived',
    (e: { requestId: string; type: string; response: { url: string } }) => {
      if (e.type === 'Script') scripts.set(e.requestId, e.response.url);
    },
  );
  cdp.on('Network.loadingFinished', (e: { requestId: string; encodedDataLength: number }) => {
    if (scripts.has(e.requestId)) sizes.set(e.requestId, e.encodedDataLength);
  });
  await page.goto('/desktop');
  await page.waitForSelector('[data-testid=chart-canvas][data-phase=ready]', { timeout: 60_000 });
  const files = [...sizes].map(([id, bytes]) => ({
    name: path.basename(new URL(scripts.get(id) ?? 'x:/unknown').pathname),
    kb: Math.round(bytes / 102.4) / 10,
  }));
  files.sort((a, b) => b.kb - a.kb);
  await page.close();
  return { totalKb: Math.round(files.reduce((s, f) => s + f.kb, 0) * 10) / 10, files };
}

export async function runBrowserBench(
  options: { seconds?: number; presetSeconds?: number } = {},
): Promise<BrowserBench> {
  const seconds = options.seconds ?? 30;
  const presetSeconds = options.presetSeconds ?? 10;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ct-bench-browser-'));
  const product = await startProduct(dataDir);
  const browser = await launch();
  try {
    const context = await browser.newContext({
      baseURL: product.url,
      viewport: { width: 1440, height: 900 },
    });
    await context.addInitScript(() => {
      if (!localStorage.getItem('chartLayout')) localStorage.setItem('chartLayout', '4');
    });
    const page = await context.newPage();
    await login(page, process.env.DEMO_PASSWORD ?? 'demo1234');
    const initial = await initialJs(context);

    // Workspace: 4 charts, a few open positions in the bottom panel's table.
    await page.goto('/desktop');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=chart-canvas][data-phase=ready]').length >= 4,
      undefined,
      { timeout: 60_000 },
    );
    await api(page, 'GET', '/trading/symbol/groups'); // warm the session
    const trader = await page.evaluate(
      () =>
        JSON.parse(localStorage.getItem('currentTrader') ?? 'null') as {
          uuid: string;
          token: string;
        } | null,
    );
    if (trader) {
      for (const [i, symbol] of ['BTCUSDT', 'ETHUSDT', 'BTCUSDT', 'ETHUSDT'].entries()) {
        await api(page, 'POST', '/trading/order/open', {
          uuid: trader.uuid,
          token: trader.token,
          symbol,
          cmd: 1 + (i % 2),
          volume: 0.01,
          channel: 1,
          device: 1,
          clientOrderId: `bench-browser-${Date.now()}-${i}`,
        });
      }
    }
    const symbols = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid=chart-canvas]')].map(
        (el) => (el as HTMLElement).dataset.symbol ?? '',
      ),
    );
    const loadSymbols = [...new Set(symbols.filter(Boolean))].slice(0, 5);
    await api(page, 'POST', '/api/market/load', {
      symbols: loadSymbols,
      ticksPerSecond: 20,
      durationSeconds: seconds + 10,
    });
    const workspace = await measure(
      page,
      `workspace, 4 charts + positions (${loadSymbols.join(' ')})`,
      seconds,
      20,
    );
    await api(page, 'DELETE', '/api/market/load');

    // The performance page at 100 ticks/s per symbol.
    await page.goto('/performance-test');
    await page.getByRole('heading', { name: '实时数据性能测试' }).waitFor({ timeout: 60_000 });
    const testSymbols = ['BTCUSDT', 'ETHUSDT', 'XAUUSD', 'XAGUSD', 'USOUSD'];
    await api(page, 'POST', '/api/market/load', {
      symbols: testSymbols,
      ticksPerSecond: 100,
      durationSeconds: seconds + 10,
    });
    const perfPage = await measure(
      page,
      'performance page (5 symbols, 2 framed charts)',
      seconds,
      100,
    );

    // Its preset test under the same load.
    await api(page, 'POST', '/api/market/load', {
      symbols: testSymbols,
      ticksPerSecond: 100,
      durationSeconds: Math.min(120, presetSeconds * 3 + 10),
    });
    if (presetSeconds !== 10) {
      await page.getByRole('combobox', { name: '每个预设运行' }).click();
      await page.locator(`.ant-select-item-option[title="${presetSeconds} 秒"]`).click();
    }
    await page.getByRole('button', { name: '运行预设测试' }).click();
    await page
      .getByRole('button', { name: '运行预设测试' })
      .waitFor({ timeout: (presetSeconds * 3 + 30) * 1000 });
    const rows = await page.evaluate(() =>
      [...document.querySelectorAll('.perf-section .ant-table tr')].map((tr) =>
        [...tr.querySelectorAll('th,td')].map((c) => (c.textContent ?? '').trim()),
      ),
    );
    const presets = rows.filter(
      (row, i) => row.some(Boolean) && rows.findIndex((r) => r.join() === row.join()) === i,
    );
    await api(page, 'DELETE', '/api/market/load');
    await context.close();
    return { scenarios: [workspace, perfPage], initialJs: initial, presets };
  } finally {
    await browser.close();
    if (product.child.pid) {
      try {
        process.kill(-product.child.pid, 'SIGTERM');
      } catch {
        // gone
      }
    }
    await new Promise((resolve) => {
      if (product.child.exitCode !== null) resolve(null);
      product.child.once('exit', resolve);
      setTimeout(resolve, 10_000);
    });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function browserReport(bench: BrowserBench): string[] {
  const lines = [
    'Browser (headless Chromium): main thread under the live feed',
    '| scenario | ticks/s/symbol | s | WS messages | long tasks >50 ms | long-task total ms | main-thread busy | frame p99 ms | heap MB start → end |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const s of bench.scenarios) {
    lines.push(
      `| ${s.name} | ${s.ticksPerSecond} | ${s.seconds} | ${s.messages} | ${s.longTasks} | ${s.longTaskMs} | ` +
        `${(s.busyShare * 100).toFixed(1)} % | ${s.frameP99Ms} | ${s.heapStartMb} → ${s.heapEndMb} |`,
    );
  }
  lines.push('');
  lines.push(
    `Initial JavaScript before the first drawn chart: ${bench.initialJs.totalKb} KB compressed`,
  );
  for (const f of bench.initialJs.files.slice(0, 12)) lines.push(`  ${f.kb} KB  ${f.name}`);
  lines.push('');
  lines.push('Performance page preset test (100 ticks/s per symbol):');
  for (const [i, row] of bench.presets.entries()) {
    lines.push(`| ${row.join(' | ')} |`);
    if (i === 0) lines.push(`|${row.map(() => '---').join('|')}|`);
  }
  return lines;
}
