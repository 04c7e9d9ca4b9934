import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loginThroughPage } from './support/auth.ts';
import { launchBrowser, newContext, screenshot, type Viewport } from './support/browser';
import { waitUntil } from './support/wait.ts';

// Drawing tools on a live chart in a real browser: a horizontal line and a trend line drawn
// from the left toolbar, saved for the user on the server and shown in another browser
// context of the same user; selected, moved and deleted (Delete key and button); the
// measuring tool's readout. The journey shares the demo user with the others: it deletes
// the drawings it made and leaves the others alone.

const baseURL = inject('baseURL');
const password = inject('demoPassword');

const READY = '[data-testid=chart-canvas][data-phase=ready]';
/** The colour of a new drawing (DEFAULT_DRAWING_STYLE). */
const DRAWING_COLOR = '#2962ff';

type Point = { time: number; price: number };
type Drawing = { id: number; kind: string; symbol: string; points: Point[] };

async function login(page: Page): Promise<void> {
  await loginThroughPage(page, password);
  await page.waitForURL(/\/(desktop|phone)/, { timeout: 30_000 });
}

/** Runs the page's fetch with its session (cookie and identity headers); answers the JSON. */
function api(page: Page, method: string, url: string, body?: unknown) {
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
      return { status: res.status, body: (await res.json()) as unknown };
    },
    { method, url, body },
  );
}

async function drawingsOn(page: Page, symbol: string): Promise<Drawing[]> {
  const answer = await api(page, 'GET', `/api/charts/drawings?symbol=${symbol}`);
  expect(answer.status).toBe(200);
  return (answer.body as { drawings: Drawing[] }).drawings;
}

function chartCanvas(page: Page, index = 0): Locator {
  return page.getByTestId('chart-canvas').nth(index);
}

async function dataset(chart: Locator): Promise<Record<string, string>> {
  return chart.evaluate((el) => ({ ...(el as HTMLElement).dataset }) as Record<string, string>);
}

/** A point of the chart's price pane, as fractions of the chart's box, in page px. */
async function at(chart: Locator, fx: number, fy: number): Promise<{ x: number; y: number }> {
  const box = (await chart.boundingBox())!;
  return { x: Math.round(box.x + box.width * fx), y: Math.round(box.y + box.height * fy) };
}

/** Clicks a drawing tool: on the toolbar, or in its More tools menu when it did not fit. */
async function pickTool(page: Page, name: string): Promise<void> {
  const toolbar = page.getByRole('toolbar', { name: 'Chart tools' }).first();
  const button = toolbar.getByRole('button', { name, exact: true });
  if ((await button.count()) > 0) {
    await button.click();
  } else {
    await toolbar.getByRole('button', { name: 'More tools' }).click();
    await page.getByRole('menuitem', { name, exact: true }).click();
  }
  await page.getByRole('status').filter({ hasText: name }).first().waitFor();
}

async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
}

/** Pixels of the chart's canvases close to `hex`. */
function colourPixels(chart: Locator, hex: string): Promise<number> {
  return chart.evaluate((root, h) => {
    const c = [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
    let count = 0;
    for (const canvas of Array.from(root.querySelectorAll('canvas'))) {
      if (canvas.width === 0 || canvas.height === 0) continue;
      const data = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data;
      if (!data) continue;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3]! < 200) continue;
        const d =
          Math.abs(data[i]! - c[0]!) +
          Math.abs(data[i + 1]! - c[1]!) +
          Math.abs(data[i + 2]! - c[2]!);
        if (d < 40) count += 1;
      }
    }
    return count;
  }, hex);
}

/** Waits for the answer of a drawing call. */
function drawingCall(page: Page, method: string) {
  return page.waitForResponse(
    (r) => r.url().includes('/api/charts/drawings') && r.request().method() === method,
  );
}

describe('drawing tools', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let symbol = '';
  /** Drawings of the demo user on the symbol before the journey: left as they are. */
  let kept = new Set<number>();

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await newContext(browser, 'desktop', baseURL);
    page = await context.newPage();
    await login(page);
    await page.waitForSelector(READY, { timeout: 30_000 });
    symbol = (await dataset(chartCanvas(page))).symbol!;
    kept = new Set((await drawingsOn(page, symbol)).map((d) => d.id));
  });

  afterAll(async () => {
    try {
      for (const d of await drawingsOn(page, symbol)) {
        if (!kept.has(d.id)) await api(page, 'DELETE', `/api/charts/drawings/${d.id}`);
      }
    } finally {
      await context?.close();
      await browser?.close();
    }
  });

  const mine = async () => (await drawingsOn(page, symbol)).filter((d) => !kept.has(d.id));

  it('draws a horizontal line and a trend line from the left toolbar and saves them', async () => {
    const chart = chartCanvas(page);
    const pixelsBefore = await colourPixels(chart, DRAWING_COLOR);

    await pickTool(page, 'Horizontal line');
    expect((await dataset(chart)).drawingTool).toBe('horizontal');
    let saved = drawingCall(page, 'POST');
    const line = await at(chart, 0.4, 0.3);
    await page.mouse.click(line.x, line.y);
    expect((await saved).status()).toBe(201);

    await pickTool(page, 'Trend line');
    saved = drawingCall(page, 'POST');
    await drag(page, await at(chart, 0.25, 0.55), await at(chart, 0.6, 0.2));
    expect((await saved).status()).toBe(201);

    const drawings = await mine();
    expect(drawings.map((d) => d.kind)).toEqual(['horizontal', 'trend']);
    const trend = drawings[1]!;
    expect(trend.points).toHaveLength(2);
    expect(trend.points[1]!.time).toBeGreaterThan(trend.points[0]!.time);
    expect(trend.points[1]!.price).toBeGreaterThan(trend.points[0]!.price);
    // the new trend line is selected, the tool is put away
    await expect.poll(async () => (await dataset(chart)).drawingSelected).toBe(String(trend.id));
    expect((await dataset(chart)).drawingTool).toBe('');
    expect(await dataset(chart)).toMatchObject({ drawings: String(kept.size + 2) });
    const pixels = await waitUntil(
      () => colourPixels(chart, DRAWING_COLOR),
      (n) => n > pixelsBefore + 300,
    );
    expect(pixels, 'drawing pixels').toBeGreaterThan(pixelsBefore + 300);
    await page.mouse.move(5, 5);
    await screenshot(page, 'drawings-drawn-1440-light');
  });

  it('shows the drawings in another browser context of the same user', async () => {
    const other = await newContext(browser, 'desktop', baseURL);
    try {
      const second = await other.newPage();
      await login(second);
      await second.waitForSelector(READY, { timeout: 30_000 });
      const chart = chartCanvas(second);
      expect((await dataset(chart)).symbol).toBe(symbol);
      await expect
        .poll(async () => (await dataset(chart)).drawings, { timeout: 15_000 })
        .toBe(String(kept.size + 2));
      const pixels = await waitUntil(
        () => colourPixels(chart, DRAWING_COLOR),
        (n) => n > 300,
      );
      expect(pixels, 'drawing pixels in the other context').toBeGreaterThan(300);
    } finally {
      await other.close();
    }
  });

  it('selects, moves and deletes drawings (Delete key and button)', async () => {
    const chart = chartCanvas(page);
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await dataset(chart)).drawingSelected).toBe('');
    const [horizontal, trend] = await mine();

    // select the horizontal line where it was drawn, drag it 60 px down
    const line = await at(chart, 0.4, 0.3);
    await page.mouse.click(line.x, line.y);
    await expect
      .poll(async () => (await dataset(chart)).drawingSelected)
      .toBe(String(horizontal!.id));
    await page.getByRole('button', { name: 'Delete Horizontal line' }).waitFor();
    const moved = drawingCall(page, 'PUT');
    await drag(page, line, { x: line.x + 20, y: line.y + 60 });
    expect((await moved).status()).toBe(200);
    const after = (await mine()).find((d) => d.id === horizontal!.id)!;
    expect(after.points[0]!.price).toBeLessThan(horizontal!.points[0]!.price);
    expect(after.points[0]!.time).toBe(horizontal!.points[0]!.time);

    // the Delete key removes the selected line
    const removed = drawingCall(page, 'DELETE');
    await page.keyboard.press('Delete');
    expect((await removed).status()).toBe(200);
    expect((await mine()).map((d) => d.id)).toEqual([trend!.id]);

    // the trend line: selected by its middle, deleted with the button
    const middle = await at(chart, 0.425, 0.375);
    await page.mouse.click(middle.x, middle.y);
    await expect.poll(async () => (await dataset(chart)).drawingSelected).toBe(String(trend!.id));
    const removedByButton = drawingCall(page, 'DELETE');
    await page.getByRole('button', { name: 'Delete Trend line' }).click();
    expect((await removedByButton).status()).toBe(200);
    expect(await mine()).toEqual([]);
    await expect.poll(async () => (await dataset(chart)).drawings).toBe(String(kept.size));
  });

  it('measures price and time distance from A to B', async () => {
    const chart = chartCanvas(page);
    await pickTool(page, 'Measure');
    await drag(page, await at(chart, 0.3, 0.5), await at(chart, 0.55, 0.25));
    const readout = page.getByRole('status', { name: 'Measurement' });
    await readout.waitFor();
    const text = (await readout.textContent()) ?? '';
    expect(text).toMatch(/^\+[\d.,]+ \(\+\d+\.\d{4}%\) · \d+ bars? · \d+[dhms]( \d+[hm])?$/);
    const bars = Number(/· (\d+) bars?/.exec(text)![1]);
    expect(bars).toBeGreaterThan(3);
    await screenshot(page, 'drawings-measure-1440-light');
    // nothing was saved: a measurement is not a drawing; Escape puts it away
    expect(await mine()).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => readout.count()).toBe(0);
  });
});

describe('drawing screenshots', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  const cases: { name: string; viewport: Viewport; width?: number; height?: number }[] = [
    { name: '1440', viewport: 'desktop', width: 1440, height: 900 },
    { name: '1024', viewport: 'desktop', width: 1024, height: 768 },
    { name: '390', viewport: 'phone' },
  ];
  for (const c of cases) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`shows a Fibonacci retracement, a rectangle and a measurement at ${c.name} (${scheme})`, async () => {
        const context = await newContext(browser, c.viewport, baseURL);
        const page = await context.newPage();
        await page.emulateMedia({ colorScheme: scheme });
        if (c.width && c.height) await page.setViewportSize({ width: c.width, height: c.height });
        let symbol = '';
        let kept = new Set<number>();
        try {
          await login(page);
          await page.waitForSelector(READY, { timeout: 30_000 });
          const chart = chartCanvas(page);
          symbol = (await dataset(chart)).symbol!;
          kept = new Set((await drawingsOn(page, symbol)).map((d) => d.id));

          await pickTool(page, 'Fibonacci retracement');
          let saved = drawingCall(page, 'POST');
          if (c.viewport === 'phone') {
            // touch: tap the first point, tap the second
            const a = await at(chart, 0.15, 0.55);
            const b = await at(chart, 0.5, 0.15);
            await page.touchscreen.tap(a.x, a.y);
            await page.touchscreen.tap(b.x, b.y);
          } else {
            await drag(page, await at(chart, 0.15, 0.55), await at(chart, 0.5, 0.15));
          }
          expect((await saved).status()).toBe(201);

          await pickTool(page, 'Rectangle');
          saved = drawingCall(page, 'POST');
          await drag(page, await at(chart, 0.55, 0.2), await at(chart, 0.75, 0.4));
          expect((await saved).status()).toBe(201);
          expect((await drawingsOn(page, symbol)).filter((d) => !kept.has(d.id))).toHaveLength(2);

          await pickTool(page, 'Measure');
          await drag(page, await at(chart, 0.2, 0.5), await at(chart, 0.45, 0.3));
          await page.getByRole('status', { name: 'Measurement' }).waitFor();
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
          ).toBeLessThanOrEqual(0);
          await screenshot(page, `drawings-chart-${c.name}-${scheme}`);

          // the rectangle selected: its bar with the Delete button
          await page.keyboard.press('Escape');
          const inside = await at(chart, 0.65, 0.3);
          await page.mouse.click(inside.x, inside.y);
          await page.getByRole('button', { name: 'Delete Rectangle' }).waitFor();
          await screenshot(page, `drawings-selected-${c.name}-${scheme}`);
        } finally {
          for (const d of symbol ? await drawingsOn(page, symbol) : []) {
            if (!kept.has(d.id)) await api(page, 'DELETE', `/api/charts/drawings/${d.id}`);
          }
          await context.close();
        }
      });
    }
  }
});
