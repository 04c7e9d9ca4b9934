/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { measureInitialJs, measureLoginToChart, type InitialJs } from './initialJs.ts';

/**
 * The browser benchmark (`npm run bench -- --only=browser`): the product as users get it
 * (`npm start`, with MARKET_LOAD_CONTROL=1), driven by Debian's headless Chromium.
 *
 * - the workspace with 4 live charts and the open positions table while the feed publishes
 *   20 ticks/s per symbol, and the performance page at 100 ticks/s per symbol, each for
 *   30 s: long tasks over 50 ms (count, total), main-thread busy share (CDP TaskDuration),
 *   frame-time p99 (requestAnimationFrame) and JS heap growth;
 * - the same workspace again with 3 indicators (SMA 20, RSI 14, MACD 12 26 9) and 10
 *   drawings on each chart, under the same load, as ratios to the workspace without them;
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

/** The workspace with indicators and drawings next to the same page without them. */
export type OverlayComparison = {
  without: Scenario;
  with: Scenario;
  /** Per chart: the indicators and the drawings it showed while measured. */
  charts: { symbol: string; indicators: string; drawings: number }[];
};

export type BrowserBench = {
  scenarios: Scenario[];
  overlays: OverlayComparison | null;
  initialJs: InitialJs;
  loginToChart: { ms: number; webSockets: number };
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

/** The indicators each chart gets in the overlay scenario (3 per chart). */
const BENCH_INDICATORS = [
  { id: 'sma20', kind: 'sma', params: { period: 20 }, visible: true, color: '#2962ff' },
  { id: 'rsi14', kind: 'rsi', params: { period: 14 }, visible: true, color: '#ff9800' },
  {
    id: 'macd',
    kind: 'macd',
    params: { fast: 12, slow: 26, signal: 9 },
    visible: true,
    color: '#00897b',
  },
];
const DRAWINGS_PER_CHART = 10;
const DRAWING_KINDS = ['horizontal', 'trend', 'vertical', 'rectangle', 'fibonacci'] as const;

/**
 * Saves 3 indicators on each of the 4 grid slots and 10 drawings on each chart's instrument
 * through the product's API (as the chart's own buttons would), spread over the bars shown.
 */
async function decorateCharts(page: Page): Promise<void> {
  const charts = await page.evaluate(() =>
    [...document.querySelectorAll('[data-testid=chart-canvas]')].map((el) => {
      const d = (el as HTMLElement).dataset;
      return { symbol: d.symbol ?? '', oldest: Number(d.oldest), newest: Number(d.newest) };
    }),
  );
  for (const slot of ['0', '1', '2', '3']) {
    await api(page, 'PUT', `/api/charts/indicators/${slot}`, { indicators: BENCH_INDICATORS });
  }
  const symbols = [...new Set(charts.map((c) => c.symbol).filter(Boolean))];
  const cache = (await api(page, 'POST', '/trading/symbol/cache', {
    channel: 1,
    device: 1,
    symbols: symbols.join(','),
  })) as { data?: { caches?: { symbol: string; bid: number }[] } };
  const prices = new Map((cache.data?.caches ?? []).map((c) => [c.symbol, c.bid]));
  for (const chart of charts) {
    const price = prices.get(chart.symbol);
    if (!chart.symbol || !price || !(chart.newest > chart.oldest)) continue;
    const span = chart.newest - chart.oldest;
    const at = (share: number) => Math.round(chart.oldest + span * share);
    for (let i = 0; i < DRAWINGS_PER_CHART; i++) {
      const kind = DRAWING_KINDS[i % DRAWING_KINDS.length]!;
      const a = { time: at(0.3 + i * 0.05), price: price * (0.995 + i * 0.001) };
      const b = { time: at(0.5 + i * 0.04), price: price * (1.002 + i * 0.001) };
      const points = kind === 'horizontal' || kind === 'vertical' ? [a] : [a, b];
      await api(page, 'POST', '/api/charts/drawings', {
        symbol: chart.symbol,
        kind,
        points,
        style: { color: '#2962ff', width: 2, line: 'solid' },
      });
    }
  }
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
    const loginToChart = await measureLoginToChart(
      context,
      process.env.DEMO_PASSWORD ?? 'demo1234',
    );
    const page = await context.newPage();
    await login(page, process.env.DEMO_PASSWORD ?? 'demo1234');
    const initial = await measureInitialJs(context);

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

    // The same page with 3 indicators and 10 drawings on each chart, under the same load.
    await decorateCharts(page);
    await page.reload();
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid=chart-canvas][data-phase=ready]')].filter(
          (el) => ((el as HTMLElement).dataset.indicators ?? '').split(';').length === 3,
        ).length >= 4,
      undefined,
      { timeout: 60_000 },
    );
    // Drawings come with their own request per chart; give them a moment to arrive.
    await page
      .waitForFunction(
        (count) =>
          [...document.querySelectorAll('[data-testid=chart-canvas]')].filter(
            (el) => Number((el as HTMLElement).dataset.drawings ?? 0) >= count,
          ).length >= 4,
        DRAWINGS_PER_CHART,
        { timeout: 20_000 },
      )
      .catch(() => undefined);
    const decorated = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid=chart-canvas]')].map((el) => {
        const d = (el as HTMLElement).dataset;
        return {
          symbol: d.symbol ?? '',
          indicators: d.indicators ?? '',
          drawings: Number(d.drawings ?? 0),
        };
      }),
    );
    await api(page, 'POST', '/api/market/load', {
      symbols: loadSymbols,
      ticksPerSecond: 20,
      durationSeconds: seconds + 10,
    });
    const withOverlays = await measure(
      page,
      `workspace, 4 charts + positions + 3 indicators and ${DRAWINGS_PER_CHART} drawings each`,
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
    return {
      scenarios: [workspace, withOverlays, perfPage],
      overlays: { without: workspace, with: withOverlays, charts: decorated },
      initialJs: initial,
      loginToChart,
      presets,
    };
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
  if (bench.overlays) lines.push('', ...overlayReport(bench.overlays));
  lines.push('');
  lines.push(
    `Initial JavaScript before the first drawn chart: ${bench.initialJs.totalKb} KB on the wire, ` +
      `${bench.initialJs.bodyKb} KB of brotli bodies (budget 300 KB) ` +
      `(first chart ${bench.initialJs.msToChart} ms after the navigation, ` +
      `${bench.initialJs.webSockets} live WebSocket(s) opened)`,
  );
  lines.push(
    `Login to the first drawn chart: ${bench.loginToChart.ms} ms, ` +
      `${bench.loginToChart.webSockets} live WebSocket(s) opened`,
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

/** `with / without` as a ratio; a zero baseline gives the two figures instead. */
function ratio(withValue: number, without: number): string {
  if (without === 0) return withValue === 0 ? '1.00× (0 → 0)' : `n/a (0 → ${withValue})`;
  return `${(withValue / without).toFixed(2)}×`;
}

function overlayReport(o: OverlayComparison): string[] {
  const lines = [
    'Indicators and drawings on the 4-chart workspace (20 ticks/s per symbol, same run):',
    '| chart | indicators | drawings |',
    '|---|---|---:|',
    ...o.charts.map(
      (c, i) => `| ${i + 1} ${c.symbol} | ${c.indicators.replaceAll(';', ', ')} | ${c.drawings} |`,
    ),
    '',
    '| figure | without | with | ratio with / without |',
    '|---|---:|---:|---:|',
  ];
  const rows: [string, number, number][] = [
    ['long tasks >50 ms', o.without.longTasks, o.with.longTasks],
    ['long-task total ms', o.without.longTaskMs, o.with.longTaskMs],
    [
      'main-thread busy %',
      Math.round(o.without.busyShare * 1000) / 10,
      Math.round(o.with.busyShare * 1000) / 10,
    ],
    ['frame p99 ms', o.without.frameP99Ms, o.with.frameP99Ms],
    ['frames', o.without.frames, o.with.frames],
  ];
  for (const [name, without, withValue] of rows) {
    lines.push(`| ${name} | ${without} | ${withValue} | ${ratio(withValue, without)} |`);
  }
  return lines;
}
