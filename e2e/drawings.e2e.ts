import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newContext, screenshot } from './support/browser';
import {
  chartCanvas,
  CHART_READY as READY,
  chartPoint as at,
  colourPixels as coloursPixels,
  dataset,
  loginToWorkspace,
  SCREENSHOT_CASES,
  sessionApi as api,
} from './support/chart.ts';
import { settledBox, waitUntil } from './support/wait.ts';

// Drawing tools on a live chart in a real browser: a horizontal line and a trend line drawn
// from the left toolbar, saved for the user on the server and shown in another browser
// context of the same user, live (without a reload) as they are drawn, restyled and
// deleted; selected, moved, restyled (kept after a reload) and deleted (Delete key and
// button); the measuring tool's readout. The journey shares the demo user with the others:
// it deletes the drawings it made and leaves the others alone.

const baseURL = inject('baseURL');
const password = inject('demoPassword');

/** The colour of a new drawing (DEFAULT_DRAWING_STYLE). */
const DRAWING_COLOR = '#2962ff';
/** The palette's purple: no candle, axis or indicator of the chart has it. */
const PURPLE = '#ab47bc';

type Point = { time: number; price: number };
type Style = { color: string; width: number; line: string; fill?: number };
type Drawing = { id: number; kind: string; symbol: string; points: Point[]; style: Style };

const login = (page: Page) => loginToWorkspace(page, password);

async function drawingsOn(page: Page, symbol: string): Promise<Drawing[]> {
  const answer = await api(page, 'GET', `/api/charts/drawings?symbol=${symbol}`);
  expect(answer.status).toBe(200);
  return (answer.body as { drawings: Drawing[] }).drawings;
}

/** Pixels of the chart's canvases close to `hex`. */
async function colourPixels(chart: Locator, hex: string): Promise<number> {
  const [count] = await coloursPixels(chart, [hex]);
  return count ?? 0;
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

/** Waits for the answer of a drawing call. */
function drawingCall(page: Page, method: string) {
  return page.waitForResponse(
    (r) => r.url().includes('/api/charts/drawings') && r.request().method() === method,
  );
}

/** Picks a value of the selected drawing's style bar: its button (by name), then the option. */
async function restyle(page: Page, button: RegExp, option: string): Promise<void> {
  const saved = drawingCall(page, 'PUT');
  await page.getByRole('button', { name: button }).click();
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
  expect((await saved).status()).toBe(200);
}

/** Marks the document; the mark survives as long as the page is not reloaded. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __notReloaded?: boolean }).__notReloaded = true;
  });
}

async function expectNotReloaded(page: Page): Promise<void> {
  expect(
    await page.evaluate(() => (window as unknown as { __notReloaded?: boolean }).__notReloaded),
  ).toBe(true);
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

  it('restyles a drawing from its style bar (mouse and keyboard); the style is kept after a reload', async () => {
    const chart = chartCanvas(page);
    await pickTool(page, 'Rectangle');
    const created = drawingCall(page, 'POST');
    await drag(page, await at(chart, 0.3, 0.25), await at(chart, 0.55, 0.45));
    expect((await created).status()).toBe(201);
    const [rectangle] = await mine();
    await expect
      .poll(async () => (await dataset(chart)).drawingSelected)
      .toBe(String(rectangle!.id));
    const purpleBefore = await colourPixels(chart, PURPLE);

    await restyle(page, /^Colour: /, 'Purple');
    await restyle(page, /^Line width: /, '4 px');
    await restyle(page, /^Fill: /, '50%');
    // the keyboard: Tab to the line style, Enter opens, arrows move, Enter picks
    const lineButton = page.getByRole('button', { name: 'Line style: Solid' });
    await lineButton.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('option', { name: 'Solid' }).waitFor();
    await page.keyboard.press('ArrowDown');
    const keyed = drawingCall(page, 'PUT');
    await page.keyboard.press('Enter');
    expect((await keyed).status()).toBe(200);
    await page.getByRole('button', { name: 'Line style: Dashed' }).waitFor();

    const expected = { color: PURPLE, width: 4, line: 'dashed', fill: 0.5 };
    const [saved] = await mine();
    expect(saved).toMatchObject({ id: rectangle!.id, points: rectangle!.points, style: expected });
    const purple = await waitUntil(
      () => colourPixels(chart, PURPLE),
      (n) => n > purpleBefore + 1000,
    );
    expect(purple, 'purple fill and border pixels').toBeGreaterThan(purpleBefore + 1000);
    await page.mouse.move(5, 5);
    await screenshot(page, 'drawings-restyled-1440-light');

    await page.reload();
    await page.waitForSelector(READY, { timeout: 30_000 });
    await expect
      .poll(async () => (await dataset(chartCanvas(page))).drawings)
      .toBe(String(kept.size + 1));
    const afterReload = await waitUntil(
      () => colourPixels(chartCanvas(page), PURPLE),
      (n) => n > 1000,
    );
    expect(afterReload, 'purple pixels after the reload').toBeGreaterThan(1000);
    // selected again, its bar shows the saved style
    const inside = await at(chartCanvas(page), 0.42, 0.35);
    await page.mouse.click(inside.x, inside.y);
    await page.getByRole('button', { name: 'Colour: Purple' }).waitFor();
    await page.getByRole('button', { name: 'Line width: 4 px' }).waitFor();
    await page.getByRole('button', { name: 'Line style: Dashed' }).waitFor();
    await page.getByRole('button', { name: 'Fill: 50%' }).waitFor();
    const removed = drawingCall(page, 'DELETE');
    await page.getByRole('button', { name: 'Delete Rectangle' }).click();
    expect((await removed).status()).toBe(200);
    expect(await mine()).toEqual([]);
  });

  it('shows a drawing made, restyled and deleted on one browser context live on another', async () => {
    const other = await newContext(browser, 'desktop', baseURL);
    try {
      const second = await other.newPage();
      await login(second);
      await second.waitForSelector(READY, { timeout: 30_000 });
      const theirs = chartCanvas(second);
      expect((await dataset(theirs)).symbol).toBe(symbol);
      await expect.poll(async () => (await dataset(theirs)).drawings).toBe(String(kept.size));
      await markDocument(second);
      const blueBefore = await colourPixels(theirs, DRAWING_COLOR);

      // drawn here: it appears there
      const chart = chartCanvas(page);
      await pickTool(page, 'Horizontal line');
      const created = drawingCall(page, 'POST');
      const where = await at(chart, 0.5, 0.4);
      await page.mouse.click(where.x, where.y);
      expect((await created).status()).toBe(201);
      await expect
        .poll(async () => (await dataset(theirs)).drawings, { timeout: 10_000 })
        .toBe(String(kept.size + 1));
      const blue = await waitUntil(
        () => colourPixels(theirs, DRAWING_COLOR),
        (n) => n > blueBefore + 300,
      );
      expect(blue, 'the new line’s pixels there').toBeGreaterThan(blueBefore + 300);

      // restyled here: the new colour there
      await restyle(page, /^Colour: /, 'Purple');
      const purple = await waitUntil(
        () => colourPixels(theirs, PURPLE),
        (n) => n > 300,
      );
      expect(purple, 'the restyled line’s pixels there').toBeGreaterThan(300);
      await screenshot(second, 'drawings-live-other-context-1440-light');

      // deleted here: gone there
      const removed = drawingCall(page, 'DELETE');
      await page.keyboard.press('Delete');
      expect((await removed).status()).toBe(200);
      await expect
        .poll(async () => (await dataset(theirs)).drawings, { timeout: 10_000 })
        .toBe(String(kept.size));
      const purpleGone = await waitUntil(
        () => colourPixels(theirs, PURPLE),
        (n) => n < 50,
      );
      expect(purpleGone, 'no purple pixels left there').toBeLessThan(50);
      await expectNotReloaded(second);
    } finally {
      await other.close();
    }
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

  for (const c of SCREENSHOT_CASES) {
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
          // its style bar with the palette open
          await page.getByRole('button', { name: 'Colour: Blue' }).click();
          const palette = page.getByRole('listbox', { name: 'Colour' });
          await palette.waitFor();
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
          ).toBeLessThanOrEqual(0);
          const box = await settledBox(palette);
          const viewport = page.viewportSize()!;
          expect(box.x).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
          await screenshot(page, `drawings-style-${c.name}-${scheme}`);
          await page.keyboard.press('Escape');
          await palette.waitFor({ state: 'detached' });
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
