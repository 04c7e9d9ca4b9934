import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loginThroughPage } from './support/auth.ts';
import {
  launchBrowser,
  newContext,
  screenshot,
  SCREENSHOT_DIR,
  takePageErrors,
} from './support/browser';
import { addChildFrame, postActionToFrame } from './support/frames.ts';
import { waitUntil } from './support/wait.ts';

// The main window with a /chart page in a child frame (spec sections 1, 4 and 7): the
// child shows live prices through the main window's one live connection, follows the main
// window's theme and trading account, takes chart actions for its own client id only, and
// runs code through the main window (monacoWorkflow/currentChart, chartActions/runCode): the
// markers land in the child and the log lines come over the bridge; the child opens no
// socket at all (every window records the WebSockets it opens).

const baseURL = inject('baseURL');
const password = inject('demoPassword');
const embedderURL = inject('embedderURL');
const READY = '[data-testid=chart-canvas][data-phase=ready]';
const FRAME = 'e2e-chart';
const CLIENT_ID = `${FRAME}:chart-page`;

describe('child frames share the main window', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let child: Frame;
  let socketsAtChild = 0;
  const sockets: { url: string; closed: boolean }[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await newContext(browser, 'desktop', baseURL);
    // every window (main and frames) records the WebSockets it opens
    await context.addInitScript(() => {
      const opened: string[] = [];
      (window as unknown as { __sockets: string[] }).__sockets = opened;
      const Native = window.WebSocket;
      window.WebSocket = class extends Native {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          opened.push(String(url));
        }
      };
    });
    page = await context.newPage();
    page.on('websocket', (ws) => {
      const socket = { url: ws.url(), closed: false };
      sockets.push(socket);
      ws.on('close', () => (socket.closed = true));
    });
    await loginThroughPage(page, password);
    await page.waitForURL(/\/desktop/, { timeout: 30_000 });
    await page.waitForSelector(READY, { timeout: 60_000 });
    socketsAtChild = sockets.length;
    child = await addChildFrame(page, `/chart?instrumentId=BTCUSDT&frameId=${FRAME}`, FRAME);
    await child.waitForSelector(READY, { timeout: 60_000 });
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('the child shows moving prices over the one live WebSocket of the main window', async () => {
    const bid = child.getByTestId('quote-bid').first();
    const first = await waitUntil(
      () => bid.textContent(),
      (t) => t !== null && /\d/.test(t),
      30_000,
    );
    expect(first).toMatch(/\d/);
    const next = await waitUntil(
      () => bid.textContent(),
      (t) => t !== first,
      30_000,
    );
    expect(next).not.toBe(first);
    expect(await child.locator('.quote-ticker').first().getAttribute('data-source')).toBe(
      'realtime',
    );
    // one open live socket: the main window's (logging in reconnects it once as the user)
    const live = sockets.filter((s) => s.url.includes('/connection/websocket') && !s.closed);
    expect(live).toHaveLength(1);
    expect(socketsAtChild).toBe(sockets.length); // the child opened none
    expect(sockets.filter((s) => /\/ws\//.test(s.url))).toHaveLength(0);
    // the child is a frame and says it synced with the main window (no notice shown)
    expect(await child.getByText('Not inside the main window', { exact: false }).count()).toBe(0);
    await screenshot(page, 'frames-child-chart');
  });

  it('a theme change in the main window reaches the child', async () => {
    const theme = () => child.evaluate(() => document.documentElement.dataset.theme);
    const before = await theme();
    const next = before === 'dark' ? 'light' : 'dark';
    await page
      .getByRole('button', { name: `Switch to ${next} theme` })
      .first()
      .click();
    expect(await waitUntil(theme, (t) => t === next)).toBe(next);
    await page
      .getByRole('button', { name: `Switch to ${before} theme` })
      .first()
      .click();
    expect(await waitUntil(theme, (t) => t === before)).toBe(before);
  });

  it('an account switch in the main window reaches the child', async () => {
    const account = page.getByRole('button', { name: /^Account:/ }).first();
    const current = (await account.getAttribute('aria-label')) ?? '';
    await account.click();
    await page.getByRole('menuitem', { name: 'Trading Accounts' }).hover();
    const other = page
      .getByRole('menuitem', { name: /^Demo / })
      .filter({ hasNotText: current.replace(/^Account: /, '') })
      .first();
    const name = ((await other.textContent()) ?? '').trim();
    await other.click();
    await page
      .getByRole('button', { name: `Account: ${name}` })
      .first()
      .waitFor();
    const inChild = child.getByRole('button', { name: `Account: ${name}` });
    await inChild.first().waitFor({ timeout: 15_000 });
    expect(await inChild.count()).toBeGreaterThan(0);
  });

  it("takes chart events for its own client id, and refuses others with 'Not my chart'", async () => {
    const canvas = child.locator('[data-testid=chart-canvas]').first();
    const to = Number(await canvas.getAttribute('data-visible-to'));
    const from = Number(await canvas.getAttribute('data-visible-from'));
    expect(to).toBeGreaterThan(from);
    const events = [
      {
        time: from + (to - from) / 3,
        position: 'belowBar',
        shape: 'arrowUp',
        color: '#26a69a',
        text: 'OB',
      },
      {
        time: from + (2 * (to - from)) / 3,
        position: 'aboveBar',
        shape: 'arrowDown',
        color: '#ef5350',
        text: 'CS',
      },
    ].map((e) => ({ ...e, time: Math.round(e.time) }));
    // the account's own fills on this instrument are markers too: count from what is there
    const before = Number(await canvas.getAttribute('data-markers'));
    const refused = await postActionToFrame(page, FRAME, {
      id: 'not-mine',
      action: 'chartActions/setEvents',
      payload: { clientId: 'someone-else:chart-page', events },
    });
    expect(refused).toMatchObject({ type: 'cw_error', error: 'Not my chart' });
    expect(Number(await canvas.getAttribute('data-markers'))).toBeLessThan(before + 2);
    const taken = await postActionToFrame(page, FRAME, {
      id: 'mine',
      action: 'chartActions/setEvents',
      payload: { clientId: CLIENT_ID, events },
    });
    expect(taken).toMatchObject({ type: 'cw_ack', result: { success: true } });
    expect(
      await waitUntil(
        async () => Number(await canvas.getAttribute('data-markers')),
        (count) => count >= before + 2,
      ),
    ).toBeGreaterThanOrEqual(before + 2);
    await screenshot(page, 'frames-child-markers');
  });

  it('a backtest run from the child shows markers in the child; its log comes through the main window', async () => {
    // room for the toolbar's editor button and the editor (80vw × 70vh of the frame)
    await page.evaluate((name) => {
      const frame = document.querySelector<HTMLIFrameElement>(`iframe[name="${name}"]`)!;
      Object.assign(frame.style, { width: '1300px', height: '860px' });
    }, FRAME);
    const dialog = (title: string) =>
      child
        .locator('.ant-modal')
        .filter({ has: child.locator('.ant-modal-title', { hasText: title }) });
    const button = child.getByRole('button', { name: 'Python Code Editor' }).first();
    await waitUntil(
      () => button.isEnabled(),
      (enabled) => enabled,
      30_000,
    );
    await button.click(); // monacoWorkflow/currentChart to the main window, then the editor
    const editor = dialog('Python Code Editor');
    const lines = editor.locator('.monaco-editor .view-lines');
    await lines.waitFor({ timeout: 60_000 });
    await waitUntil(
      () => lines.innerText(),
      (text) => text.includes('def main'),
      30_000,
    );
    const canvas = child.locator('[data-testid=chart-canvas]').first();
    const markersBefore = Number((await canvas.getAttribute('data-markers')) ?? 0);
    await editor.getByRole('button', { name: 'Run Code' }).click(); // chartActions/runCode
    const results = dialog('Backtest Results');
    await results.waitFor({ timeout: 90_000 });
    await results.getByText('Performance Metrics').waitFor();
    expect(
      await results.locator('.ant-table').nth(1).locator('tbody tr.ant-table-row').count(),
    ).toBeGreaterThan(0);
    // the main window put the run's trades on the child's chart (chartActions/setEvents)
    const markers = await waitUntil(
      async () => Number((await canvas.getAttribute('data-markers')) ?? 0),
      (n) => n > 0 && n !== markersBefore,
      30_000,
    );
    expect(markers).toBeGreaterThan(0);
    await screenshot(page, 'frames-child-backtest');
    await results.locator('.ant-modal-close').click();
    // the Execution Log shows the main window's log socket, forwarded to the child
    await editor.getByRole('button', { name: 'Run Logs' }).click();
    const log = dialog('Execution Log');
    await log.getByText('Connected', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await log.getByTestId('strategy-log').innerText()).toContain(
      'Connection established, waiting for logs...',
    );
    await screenshot(page, 'frames-child-log');
    await log.locator('.ant-modal-close').click();
    await editor.locator('.ant-modal-close').first().click();
    // sockets: the child opened none; the main window holds the one live connection and the
    // chart's log socket
    const opened = (frame: Page | Frame) =>
      frame.evaluate(() => (window as unknown as { __sockets: string[] }).__sockets);
    expect(await opened(child)).toEqual([]);
    const mainSockets = await opened(page);
    expect(mainSockets.filter((url) => url.includes('/ws/'))).toEqual([
      expect.stringContaining(`/ws/${encodeURIComponent(CLIENT_ID)}`),
    ]);
    const live = sockets.filter((s) => s.url.includes('/connection/websocket') && !s.closed);
    expect(live).toHaveLength(1);
  });

  it('screenshots of the framed chart at 1440 and 390 wide, light and dark', async () => {
    const theme = () => child.evaluate(() => document.documentElement.dataset.theme);
    for (const mode of ['light', 'dark'] as const) {
      await page.setViewportSize({ width: 1440, height: 900 }); // the toolbar's theme button
      if ((await theme()) !== mode) {
        await page
          .getByRole('button', { name: `Switch to ${mode} theme` })
          .first()
          .click();
        await waitUntil(theme, (t) => t === mode);
      }
      for (const [width, frameWidth, frameHeight] of [
        [1440, 1300, 760],
        [390, 370, 640],
      ] as const) {
        await page.setViewportSize({ width, height: 900 });
        await page.evaluate(
          ({ name, w, h }) => {
            const frame = document.querySelector<HTMLIFrameElement>(`iframe[name="${name}"]`)!;
            Object.assign(frame.style, { width: `${w}px`, height: `${h}px` });
          },
          { name: FRAME, w: frameWidth, h: frameHeight },
        );
        await child.waitForSelector(READY);
        // the chart redraws at its new size on the next frames
        await child.waitForFunction(
          () =>
            new Promise((resolve) =>
              requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))),
            ),
        );
        await page.screenshot({ path: `${SCREENSHOT_DIR}/frames-child-${width}-${mode}.png` });
      }
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole('button', { name: 'Switch to light theme' }).first().click();
    await waitUntil(theme, (t) => t === 'light');
  });

  it('a chart page framed by no main window says so (State sync timeout)', async () => {
    const lonely = await context.newPage();
    // a document of our origin without the app (a JSON answer), framing the chart page
    await lonely.goto('/trading/symbol/groups');
    await lonely.setContent(
      `<iframe name="lonely" src="${baseURL}/chart?instrumentId=ETHUSDT" style="width:900px;height:560px"></iframe>`,
    );
    const frame = lonely.frame({ name: 'lonely' });
    expect(frame).not.toBeNull();
    await frame!
      .getByText('Not inside the main window (State sync timeout)')
      .waitFor({ timeout: 30_000 });
    await lonely.close();
  });
});

// A page of another origin frames the chart page (FRAME_ANCESTORS, set for this run to the
// embedder of support/embedder.ts on another port of 127.0.0.1: the same site, so the
// session cookie goes with the frame). The frame loads and talks the frame protocol with
// that page; the same page served from `localhost` (an origin not listed, as for a product
// without the setting) is refused by the browser.
describe('pages of other origins framing ours', () => {
  let browser: Browser;
  let context: BrowserContext;
  const chartURL = `${baseURL}/chart?instrumentId=BTCUSDT`;
  const embed = (origin: string) => `${origin}/embed?src=${encodeURIComponent(chartURL)}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await newContext(browser, 'desktop', baseURL);
    const page = await context.newPage();
    await loginThroughPage(page, password);
    await page.waitForURL(/\/desktop/, { timeout: 30_000 });
    await page.close();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('an allowed origin frames the chart page, which talks the frame protocol with it', async () => {
    const portal = await context.newPage();
    await portal.goto(embed(embedderURL));
    await portal.getByRole('heading', { name: 'Partner portal' }).waitFor();
    const frame = portal.frame({ name: 'embedded' });
    expect(frame).not.toBeNull();
    await frame!.waitForSelector(READY, { timeout: 60_000 });
    // the chart page asked the embedder for the shared state at the embedder's origin, and
    // took its answer: the embedder's dark theme, and no 'Not inside the main window'
    const theme = await waitUntil(
      () => frame!.evaluate(() => document.documentElement.dataset.theme),
      (t) => t === 'dark',
    );
    expect(theme).toBe('dark');
    const heard = await portal.evaluate(
      () =>
        (window as unknown as { __heard: { origin: string; data: { type: string } }[] }).__heard,
    );
    expect(heard.map((m) => m.data.type)).toContain('cw_state_request');
    expect(new Set(heard.map((m) => m.origin))).toEqual(new Set([new URL(baseURL).origin]));
    expect(await frame!.getByText('Not inside the main window', { exact: false }).count()).toBe(0);
    // the embedder's shared action is answered to it (a chart action for another client id)
    const answer = await portal.evaluate(
      () =>
        new Promise((resolve) => {
          const iframe = document.querySelector('iframe')!;
          const target = iframe.contentWindow!;
          window.addEventListener('message', (event) => {
            const data = event.data as { id?: string };
            if (event.source === target && data?.id === 'portal-1') resolve(data);
          });
          target.postMessage(
            {
              type: 'cw_action',
              id: 'portal-1',
              action: 'chartActions/setEvents',
              payload: { clientId: 'someone-else:chart-page', events: [] },
            },
            new URL(iframe.src).origin,
          );
        }),
    );
    expect(answer).toMatchObject({ type: 'cw_error', error: 'Not my chart' });
    await screenshot(portal, 'frames-embedded-allowed-origin');
    await portal.close();
  });

  it('an origin not listed is refused: the browser does not show the chart page in its frame', async () => {
    const other = embedderURL.replace('127.0.0.1', 'localhost');
    const portal = await context.newPage();
    await portal.goto(embed(other));
    await portal.getByRole('heading', { name: 'Partner portal' }).waitFor();
    // Chromium logs the refusal as a Content Security Policy violation: the journey's page
    // error check counts those, so this one, expected, is taken here
    const refusals: string[] = [];
    await waitUntil(
      async () => refusals.push(...takePageErrors()),
      () => refusals.some((e) => e.includes('frame-ancestors')),
      30_000,
    );
    expect(refusals.length).toBeGreaterThan(0);
    for (const refusal of refusals) expect(refusal).toMatch(/frame-ancestors 'self' http:\/\/127/);
    const frame = portal.frame({ name: 'embedded' });
    expect(frame ? await frame.locator('#root').count() : 0).toBe(0);
    await screenshot(portal, 'frames-embedded-refused-origin');
    await portal.close();
  });
});
