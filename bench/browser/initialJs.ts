/// <reference lib="dom" />
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';

/**
 * The JavaScript a first visit transfers (compressed bytes on the wire) before the first
 * chart is drawn, with its files. Part of `npm run bench -- --only=browser`; on its own:
 * `node --import tsx bench/browser/initialJs.ts [--web-dist=DIR] [--all-files]` (a built web app in DIR,
 * e.g. to compare two builds; by default `npm start` builds apps/web/dist when stale).
 */
export type InitialJs = {
  /** On the wire: the compressed bodies with their response headers. */
  totalKb: number;
  /** The compressed (brotli) bodies alone: what the 300 KB budget counts. */
  bodyKb: number;
  files: { name: string; kb: number; bodyKb: number }[];
  /** Live WebSockets the page opened until its first chart was drawn and 3 s after. */
  webSockets: number;
  /** From the navigation's start to the first drawn chart. */
  msToChart: number;
  /** The page stopped waiting for its first chart before it was drawn (its 3 s fallback). */
  waitedOut: boolean;
};

/** Logs in through the page and times the way from Submit to the first drawn chart. */
export async function measureLoginToChart(
  context: BrowserContext,
  password: string,
): Promise<{ ms: number; webSockets: number }> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  let webSockets = 0;
  cdp.on('Network.webSocketCreated', () => (webSockets += 1));
  await page.goto('/login');
  await page.getByLabel('Email').fill('demo@example.com');
  await page.getByLabel('Password').fill(password);
  const started = Date.now();
  await page.getByLabel('Password').press('Enter');
  await page.waitForSelector('[data-testid=chart-canvas][data-phase=ready]', { timeout: 60_000 });
  const ms = Date.now() - started;
  await page.waitForTimeout(3000); // a second connection would open within this
  await page.close();
  return { ms, webSockets };
}

const REPO_ROOT = new URL('../..', import.meta.url).pathname;

/**
 * Opens /desktop in a fresh page with the cache off and sums the scripts it asked for before
 * its first chart was drawn (the User Timing mark the page sets then), with the bytes each
 * transferred and its compressed body alone. What the page asks for after that (the panels that
 * follow the chart, shared/firstChart.ts) is not counted.
 */
export async function measureInitialJs(context: BrowserContext): Promise<InitialJs> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const scripts = new Map<string, string>();
  const askedAt = new Map<string, number>();
  const sizes = new Map<string, number>();
  const headers = new Map<string, number>();
  let webSockets = 0;
  cdp.on('Network.webSocketCreated', () => (webSockets += 1));
  cdp.on('Network.requestWillBeSent', (e: { requestId: string; wallTime: number }) => {
    askedAt.set(e.requestId, e.wallTime * 1000);
  });
  cdp.on(
    'Network.responseReceived',
    (e: {
      requestId: string;
      type: string;
      response: { url: string; encodedDataLength: number };
    }) => {
      if (e.type !== 'Script') return;
      scripts.set(e.requestId, e.response.url);
      // what arrived with the response's start: its headers
      headers.set(e.requestId, e.response.encodedDataLength);
    },
  );
  cdp.on('Network.loadingFinished', (e: { requestId: string; encodedDataLength: number }) => {
    if (scripts.has(e.requestId)) sizes.set(e.requestId, e.encodedDataLength);
  });
  const started = Date.now();
  await page.goto('/desktop');
  await page.waitForSelector('[data-testid=chart-canvas][data-phase=ready]', { timeout: 60_000 });
  const msToChart = Date.now() - started;
  await page.waitForTimeout(3000); // a second connection would open within this
  // The page's own mark of its first drawn chart (apps/web/src/shared/firstChart.ts). Where
  // the page stopped waiting for it first (a busy machine: its 3 s fallback), what it asked
  // for after that came with the panels that follow the chart and is not counted either.
  // (no named functions in the page's code: tsx would wrap them in a helper the page lacks)
  const [drawn, waitOver] = await page.evaluate(() =>
    ['ct:first-chart-drawn', 'ct:first-chart-wait-over'].map((name) => {
      const mark = performance.getEntriesByName(name)[0];
      return mark ? performance.timeOrigin + mark.startTime : null;
    }),
  );
  const marks = { drawn: drawn ?? null, waitOver: waitOver ?? null };
  const readyAt = Math.min(marks.drawn ?? Date.now(), marks.waitOver ?? Infinity);
  const files = [...sizes]
    .filter(([id]) => (askedAt.get(id) ?? Infinity) <= readyAt)
    .map(([id, bytes]) => ({
      name: path.basename(new URL(scripts.get(id) ?? 'x:/unknown').pathname),
      kb: Math.round(bytes / 102.4) / 10,
      bodyKb: Math.round((bytes - (headers.get(id) ?? 0)) / 102.4) / 10,
    }));
  files.sort((a, b) => b.kb - a.kb);
  await page.close();
  return {
    totalKb: Math.round(files.reduce((s, f) => s + f.kb, 0) * 10) / 10,
    bodyKb: Math.round(files.reduce((s, f) => s + f.bodyKb, 0) * 10) / 10,
    files,
    webSockets,
    msToChart,
    waitedOut: marks.waitOver !== null && (marks.drawn === null || marks.waitOver < marks.drawn),
  };
}

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

async function startServer(
  dataDir: string,
  webDist: string | null,
): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const { NODE_ENV: _mode, ...env } = process.env;
  const args = webDist ? ['--import', 'tsx', 'apps/server/src/main.ts'] : ['scripts/start.mjs'];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...(webDist ? { WEB_DIST: webDist } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`product exited (${code}):\n${output}`)));
  });
}

async function main(): Promise<void> {
  const arg = process.argv.find((a) => a.startsWith('--web-dist='));
  const webDist = arg ? path.resolve(arg.slice('--web-dist='.length)) : null;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ct-bench-initial-js-'));
  const server = await startServer(dataDir, webDist);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 1440, height: 900 },
    });
    const logins = [];
    for (let i = 0; i < 3; i += 1) {
      await context.clearCookies();
      logins.push(await measureLoginToChart(context, process.env.DEMO_PASSWORD ?? 'demo1234'));
    }
    console.log(
      `Login to the first drawn chart: ${logins.map((l) => l.ms).join(' / ')} ms (3 logins), ` +
        `live WebSockets opened: ${logins.map((l) => l.webSockets).join(' / ')}`,
    );
    const runs: InitialJs[] = [];
    for (let i = 0; i < 3; i += 1) runs.push(await measureInitialJs(context));
    const last = runs.at(-1)!;
    console.log(
      `Initial JavaScript before the first drawn chart${webDist ? ` (${webDist})` : ''}: ` +
        `${runs.map((r) => r.totalKb).join(' / ')} KB on the wire, ` +
        `${runs.map((r) => r.bodyKb).join(' / ')} KB of brotli bodies (3 loads), ${last.files.length} files, ` +
        `first chart after ${runs.map((r) => r.msToChart).join(' / ')} ms, ` +
        `gave up waiting for it first: ${runs.map((r) => (r.waitedOut ? 'yes' : 'no')).join(' / ')}, ` +
        `live WebSockets opened: ${runs.map((r) => r.webSockets).join(' / ')}`,
    );
    const all = process.argv.includes('--all-files');
    for (const f of all ? last.files : last.files.slice(0, 12))
      console.log(`  ${f.kb} KB (body ${f.bodyKb})  ${f.name}`);
  } finally {
    await browser.close();
    if (server.child.pid) process.kill(-server.child.pid, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
