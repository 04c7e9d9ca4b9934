import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { loginThroughPage } from './auth.ts';
import type { Viewport } from './browser.ts';

/*
 * What the chart journeys (drawings, indicators) share: the chart's container and its data
 * attributes, the page's own session calls, the pixels of the chart's canvases in a colour,
 * and the widths and themes their screenshots are taken at.
 */

/** A chart whose data has loaded. */
export const CHART_READY = '[data-testid=chart-canvas][data-phase=ready]';

/** Logs in through the login page and waits for the workspace (desktop or phone). */
export async function loginToWorkspace(page: Page, password: string): Promise<void> {
  await loginThroughPage(page, password);
  await page.waitForURL(/\/(desktop|phone)/, { timeout: 30_000 });
}

/** The `index`-th chart's container (it carries the chart's data attributes). */
export function chartCanvas(page: Page, index = 0): Locator {
  return page.getByTestId('chart-canvas').nth(index);
}

/**
 * Waits until the chart tools' tooltips have loaded (after the first drawn chart): each
 * tool is drawn anew inside its tooltip once, so a tool measured before that may be gone
 * when its box is read.
 */
export async function toolsSettled(scope: Page | Locator): Promise<void> {
  await expect.poll(() => scope.locator('.ct-tip-wait').count(), { timeout: 30_000 }).toBe(0);
}

/** The data attributes of a chart's container (`data-symbol`, `data-drawings`…). */
export async function dataset(chart: Locator): Promise<Record<string, string>> {
  return chart.evaluate((el) => ({ ...(el as HTMLElement).dataset }) as Record<string, string>);
}

export type ApiAnswer = { status: number; body: unknown };

/** Runs the page's fetch with its session (cookie and identity headers); answers the JSON. */
export function sessionApi(
  page: Page,
  method: string,
  url: string,
  body?: unknown,
): Promise<ApiAnswer> {
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

/**
 * Opaque pixels of the chart's canvases close to each of `colours` (hex), in the order
 * given: how the journeys see that a line, a drawing or an indicator is drawn.
 */
export function colourPixels(chart: Locator, colours: readonly string[]): Promise<number[]> {
  return chart.evaluate((root, hexes) => {
    const targets = hexes.map((h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)));
    const counts = targets.map(() => 0);
    for (const canvas of Array.from(root.querySelectorAll('canvas'))) {
      if (canvas.width === 0 || canvas.height === 0) continue;
      const data = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data;
      if (!data) continue;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3]! < 200) continue;
        targets.forEach((c, k) => {
          const d =
            Math.abs(data[i]! - c[0]!) +
            Math.abs(data[i + 1]! - c[1]!) +
            Math.abs(data[i + 2]! - c[2]!);
          if (d < 40) counts[k]! += 1;
        });
      }
    }
    return counts;
  }, colours);
}

/** A point of the chart, as fractions of the chart's box, in page px. */
export async function chartPoint(
  chart: Locator,
  fx: number,
  fy: number,
): Promise<{ x: number; y: number }> {
  const box = await chart.boundingBox();
  if (!box) throw new Error('The chart is not on screen');
  return { x: Math.round(box.x + box.width * fx), y: Math.round(box.y + box.height * fy) };
}

export type ScreenshotCase = { name: string; viewport: Viewport; width?: number; height?: number };

/** The widths the chart screenshots are taken at: desktop 1440 and 1024, a 390 px phone. */
export const SCREENSHOT_CASES: readonly ScreenshotCase[] = [
  { name: '1440', viewport: 'desktop', width: 1440, height: 900 },
  { name: '1024', viewport: 'desktop', width: 1024, height: 768 },
  { name: '390', viewport: 'phone' },
];

/**
 * Drags a chart line until its label asks for confirmation. `drag` measures where the line is
 * and drags it; on a loaded machine the price scale may move between that measurement and the
 * finger's press (a new bar, a tick rescaling it), and the press then lands beside the line and
 * scrolls the chart instead: the drag is measured and tried again, up to `attempts` times.
 */
export async function dragUntilAsked(
  line: Locator,
  drag: () => Promise<void>,
  attempts = 3,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await drag();
    try {
      await line.getByRole('button', { name: 'Confirm' }).waitFor({ timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt >= attempts) throw error;
    }
  }
}
