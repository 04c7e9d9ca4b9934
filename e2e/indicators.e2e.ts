import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newContext, screenshot } from './support/browser';
import {
  chartCanvas,
  CHART_READY as READY,
  colourPixels,
  dataset,
  loginToWorkspace,
  SCREENSHOT_CASES,
  sessionApi as api,
} from './support/chart.ts';
import { animationsDone, settledBox, waitUntil } from './support/wait.ts';

// Indicators on a live chart in a real browser: added from the left toolbar, drawn (pixels
// in their colours, panes of their own), saved for the user on the server and back after a
// reload, and kept per chart of the grid. The journey shares the demo user with the others:
// it puts back the indicator settings it found.

const baseURL = inject('baseURL');
const password = inject('demoPassword');

/** The first two colours new indicators take (features/chart/indicators/store.ts). */
const SMA_COLOR = '#2962ff';
const RSI_COLOR = '#ff9800';
const SLOTS = ['0', '1', '2', '3'];

const login = (page: Page) => loginToWorkspace(page, password);

/** Waits until the chart draws SMA 20 over the price and RSI 14 in a pane of its own. */
async function expectSmaAndRsi(chart: Locator): Promise<void> {
  await expect
    .poll(async () => (await dataset(chart)).indicators, { timeout: 30_000 })
    .toBe('SMA 20;RSI 14');
  // price, volume and RSI
  await expect
    .poll(async () => (await dataset(chart)).indicatorPanes, { timeout: 30_000 })
    .toBe('3');
  const [sma, rsi] = await waitUntil(
    () => colourPixels(chart, [SMA_COLOR, RSI_COLOR]),
    ([s, r]) => s! > 150 && r! > 150,
  );
  expect(sma, 'SMA line pixels').toBeGreaterThan(150);
  expect(rsi, 'RSI line pixels').toBeGreaterThan(150);
}

/** Heights (px) of the chart's panes, top to bottom: price, volume, then the indicators. */
function paneHeights(chart: Locator): Promise<number[]> {
  return chart.evaluate((el) => {
    // lightweight-charts lays its panes out as table rows: a pane row has the pane and its
    // two price-axis cells, a separator row one cell; the last three-cell row is the time axis
    const rows = Array.from(el.querySelectorAll('table tr')).filter(
      (tr) => tr.children.length === 3,
    );
    return rows.slice(0, -1).map((tr) => Math.round(tr.getBoundingClientRect().height));
  });
}

describe('indicators', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** The demo user's settings before the journey, put back after it. */
  const found = new Map<string, unknown>();

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await newContext(browser, 'desktop', baseURL);
    page = await context.newPage();
    await login(page);
    for (const slot of SLOTS) {
      const answer = (await api(page, 'GET', `/api/charts/indicators/${slot}`)) as {
        status: number;
        body: { indicators: unknown[] };
      };
      expect(answer.status, `GET indicators of slot ${slot}`).toBe(200);
      found.set(slot, answer.body.indicators);
      await api(page, 'PUT', `/api/charts/indicators/${slot}`, { indicators: [] });
    }
    await page.reload();
  });

  afterAll(async () => {
    try {
      for (const [slot, indicators] of found) {
        await api(page, 'PUT', `/api/charts/indicators/${slot}`, { indicators });
      }
    } finally {
      await context?.close();
      await browser?.close();
    }
  });

  it('adds SMA 20 and RSI 14 from the left toolbar: both draw, RSI in a pane of its own', async () => {
    const chart = chartCanvas(page);
    await page.waitForSelector(READY, { timeout: 30_000 });
    // price and volume (the panes are counted once the chart has laid them out)
    await expect
      .poll(async () => (await dataset(chart)).indicatorPanes, { timeout: 30_000 })
      .toBe('2');
    await page
      .getByRole('toolbar', { name: 'Chart tools' })
      .getByRole('button', { name: 'Indicators' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Indicators' });
    await dialog.waitFor();
    const saved = () =>
      page.waitForResponse(
        (r) => r.url().endsWith('/api/charts/indicators/0') && r.request().method() === 'PUT',
      );
    let put = saved();
    await dialog.getByRole('button', { name: 'Add Moving Average (SMA)' }).click();
    expect((await put).status()).toBe(200);
    put = saved();
    await dialog.getByRole('button', { name: 'Add Relative Strength Index (RSI)' }).click();
    expect((await put).status()).toBe(200);
    await expect.poll(() => dialog.getByText('SMA 20', { exact: true }).count()).toBe(1);
    await expect.poll(() => dialog.getByText('RSI 14', { exact: true }).count()).toBe(1);
    await animationsDone(dialog);
    await screenshot(page, 'indicators-dialog-1440-light');
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
    await dialog.waitFor({ state: 'hidden' });
    await expectSmaAndRsi(chart);
    // the legend lists them with their values at the newest bar, then at the hovered one
    const legend = page.getByRole('list', { name: 'Indicator values' }).first();
    const smaRow = legend.getByRole('listitem').filter({ hasText: /^SMA 20/ });
    await expect.poll(() => smaRow.textContent()).toMatch(/^SMA 20-?\d+\.\d+$/);
    await expect
      .poll(() =>
        legend
          .getByRole('listitem')
          .filter({ hasText: /^RSI 14\d+\.\d{2}$/ })
          .count(),
      )
      .toBe(1);
    const newest = await smaRow.textContent();
    const box = await settledBox(chart);
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.4);
    await expect.poll(() => smaRow.textContent()).not.toBe(newest);
    await page.mouse.move(5, 5);
  });

  it('gives RSI a usable pane, resized by dragging the separator above it', async () => {
    const chart = chartCanvas(page);
    for (const [width, height] of [
      [1024, 768],
      [1440, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      const heights = await waitUntil(
        () => paneHeights(chart),
        (h) => h.length === 3 && h[2]! >= 100,
      );
      const total = heights.reduce((sum, h) => sum + h, 0);
      const rsi = heights[2]!;
      expect(rsi, `RSI pane at ${width}: ${heights.join(', ')}`).toBeGreaterThanOrEqual(100);
      expect(rsi / total, `RSI share at ${width}`).toBeGreaterThanOrEqual(0.25);
      await screenshot(page, `indicators-rsi-pane-${width}-light`);
    }
    // the separator between the volume and RSI panes: drag it down 40 px (up, the volume pane
    // would soon be at the library's least height)
    const before = (await paneHeights(chart))[2]!;
    const box = await chart.boundingBox();
    const rsiTop = await chart.evaluate((el) => {
      const rows = Array.from(el.querySelectorAll('table tr')).filter(
        (tr) => tr.children.length === 3,
      );
      return rows[2]!.getBoundingClientRect().top;
    });
    const x = box!.x + box!.width / 3;
    await page.mouse.move(x, rsiTop - 1);
    await page.mouse.down();
    await page.mouse.move(x, rsiTop + 19, { steps: 4 });
    await page.mouse.move(x, rsiTop + 39, { steps: 4 });
    await page.mouse.up();
    const after = await waitUntil(
      async () => (await paneHeights(chart))[2]!,
      (h) => h < before - 20,
    );
    expect(after, 'RSI pane after dragging its separator down').toBeLessThan(before - 20);
  });

  it('survives a reload: the server gives the settings back', async () => {
    await page.reload();
    await page.waitForSelector(READY, { timeout: 30_000 });
    await expectSmaAndRsi(chartCanvas(page));
  });

  it('another chart of the grid does not have them', async () => {
    await page.getByTitle('4 charts').click();
    await expect.poll(() => page.locator(READY).count(), { timeout: 30_000 }).toBe(4);
    await expectSmaAndRsi(chartCanvas(page, 0));
    for (const i of [1, 2, 3]) {
      const d = await dataset(chartCanvas(page, i));
      expect(d.indicators ?? '', `chart ${i + 1}`).toBe('');
      expect(d.indicatorPanes, `chart ${i + 1}`).toBe('2');
    }
    const [sma] = await colourPixels(chartCanvas(page, 1), [SMA_COLOR]);
    expect(sma, 'no SMA on chart 2').toBeLessThan(20);
    await page.mouse.move(5, 5);
    await screenshot(page, 'indicators-grid4-1440-light');
    await page.getByTitle('1 chart').click();
  });

  it('hiding the volume removes its pane; showing it brings it back under the price', async () => {
    const chart = chartCanvas(page);
    await page.waitForSelector(READY);
    await page.getByRole('button', { name: 'Indicators' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Indicators' });
    await dialog.getByRole('button', { name: 'Hide Vol' }).click();
    await expect.poll(async () => (await dataset(chart)).indicatorPanes).toBe('2');
    await dialog.getByRole('button', { name: 'Show Vol' }).click();
    await expect.poll(async () => (await dataset(chart)).indicatorPanes).toBe('3');
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
    await dialog.waitFor({ state: 'hidden' });
  });
});

describe('indicator screenshots', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  for (const c of SCREENSHOT_CASES) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`shows SMA, Bollinger, RSI and MACD at ${c.name} (${scheme})`, async () => {
        const context = await newContext(browser, c.viewport, baseURL);
        const page = await context.newPage();
        await page.emulateMedia({ colorScheme: scheme });
        if (c.width && c.height) await page.setViewportSize({ width: c.width, height: c.height });
        try {
          await login(page);
          const before = (await api(page, 'GET', '/api/charts/indicators/0')) as {
            body: { indicators: unknown[] };
          };
          await api(page, 'PUT', '/api/charts/indicators/0', {
            indicators: [
              { id: 's1', kind: 'sma', params: { period: 20 }, visible: true, color: SMA_COLOR },
              {
                id: 'b1',
                kind: 'bollinger',
                params: { period: 20, deviation: 2 },
                visible: true,
                color: '#9c27b0',
              },
              { id: 'r1', kind: 'rsi', params: { period: 14 }, visible: true, color: RSI_COLOR },
              {
                id: 'm1',
                kind: 'macd',
                params: { fast: 12, slow: 26, signal: 9 },
                visible: true,
                color: '#00897b',
              },
            ],
          });
          try {
            await page.reload();
            const chart = chartCanvas(page);
            await page.waitForSelector(READY, { timeout: 30_000 });
            await expect
              .poll(async () => (await dataset(chart)).indicators, { timeout: 30_000 })
              .toBe('SMA 20;BB 20 2;RSI 14;MACD 12 26 9');
            await expect
              .poll(async () => (await dataset(chart)).indicatorPanes, { timeout: 30_000 })
              .toBe('4');
            await expect
              .poll(() => page.locator('.ant-message-notice').count(), { timeout: 10_000 })
              .toBe(0);
            expect(
              await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
            ).toBeLessThanOrEqual(0);
            await page.mouse.move(5, 5);
            await screenshot(page, `indicators-chart-${c.name}-${scheme}`);
            await page.getByRole('button', { name: 'Indicators' }).first().click();
            const dialog = page.getByRole('dialog', { name: 'Indicators' });
            await dialog.getByText('MACD 12 26 9', { exact: true }).waitFor();
            await animationsDone(dialog);
            const box = await settledBox(dialog);
            expect(box.x).toBeGreaterThanOrEqual(0);
            expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
            await screenshot(page, `indicators-dialog-${c.name}-${scheme}`);
          } finally {
            await api(page, 'PUT', '/api/charts/indicators/0', {
              indicators: before.body.indicators,
            });
          }
        } finally {
          await context.close();
        }
      });
    }
  }
});
