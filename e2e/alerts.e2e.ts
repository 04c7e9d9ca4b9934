import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectPath, loginThroughPage } from './support/auth.ts';
import { launchBrowser, newContext, screenshot } from './support/browser.ts';
import { closeChartPage, openChartPage, pinQuoteAtMarket } from './support/chartPage.ts';
import { chartLines, placeOf } from './support/chartLines.ts';
import { releaseQuote, setQuote } from './support/market.ts';
import { LIVE, setTheme, toast } from './support/trading.ts';

/*
 * A price alert from the chart: right-click at a price, "Add alert at …", Create; its dashed
 * line with a bell shows at that price; dragged, it moves (the server has the new level);
 * the pinned quote then crosses it and the alert fires: a toast with its message, its line
 * goes, and the Alerts side panel lists it under Fired. BTCUSDT's quote is pinned where the
 * simulation has it; the journey deletes its alerts at the end.
 */

const baseURL = inject('baseURL');
const password = inject('demoPassword');
const SYMBOL = 'BTCUSDT';
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

const { chart, lineLabel, marketNow } = chartLines(SYMBOL);

type AlertRow = { id: number; level: number | null; status: string };

async function alertsOf(page: Page): Promise<AlertRow[]> {
  const res = await page.request.get('/api/alerts');
  return ((await res.json()) as { alerts: AlertRow[] }).alerts;
}

async function deleteAll(page: Page): Promise<void> {
  for (const alert of await alertsOf(page)) await page.request.delete(`/api/alerts/${alert.id}`);
}

describe('a price alert from the chart, desktop', () => {
  let page: Page;
  let bid = 0;

  beforeAll(async () => {
    page = await openChartPage(browser, {
      baseURL,
      password,
      viewport: 'desktop',
      symbol: SYMBOL,
      // the alert lines and the chart's context menu load just after the first chart is drawn
      ready: (page) =>
        chart(page)
          .getByRole('group', { name: 'Alert lines' })
          .waitFor({ state: 'attached', ...LIVE }),
    });
    await deleteAll(page);
    bid = await pinQuoteAtMarket(page, SYMBOL);
  });
  afterAll(async () => {
    await deleteAll(page);
    await closeChartPage(page, SYMBOL);
  });

  it('added from the context menu at a price, shown as a line, dragged, then fired', async () => {
    const canvas = chart(page).getByTestId('chart-canvas');
    const box = await canvas.boundingBox();
    if (!box) throw new Error('No chart');
    // a right-click above the middle of the price pane: a price above the pinned bid
    await page.mouse.click(box.x + box.width * 0.45, box.y + box.height * 0.25, {
      button: 'right',
    });
    const menu = chart(page).getByRole('menu', { name: 'Chart menu' });
    const item = menu.getByRole('menuitem', { name: /^Add alert at [\d.]+$/ });
    await item.waitFor();
    const offered = Number(/([\d.]+)$/.exec((await item.textContent()) ?? '')?.[1]);
    expect(offered).toBeGreaterThan(0);
    await screenshot(page, 'alerts-desktop-1440-light-menu');
    await item.click();

    const dialog = page.getByRole('dialog', { name: `New alert on ${SYMBOL}` });
    await dialog.waitFor();
    expect(await dialog.getByRole('spinbutton', { name: 'Price' }).inputValue()).toBe(
      String(offered),
    );
    await screenshot(page, 'alerts-desktop-1440-light-dialog');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await toast(page, `Alert set: ${SYMBOL} at`);

    const line = lineLabel(page, /^Alert Crossing [\d.]+$/);
    await line.waitFor({ state: 'visible', ...LIVE });
    expect(Number(await line.getAttribute('data-price'))).toBe(offered);
    await screenshot(page, 'alerts-desktop-1440-light-line');
    await setTheme(page, 'dark');
    await screenshot(page, 'alerts-desktop-1440-dark-line');
    await setTheme(page, 'light');

    // dragged by its label 60 px down: a lower level, saved on the server
    const before = await placeOf(line);
    const labelBox = await line.boundingBox();
    if (!labelBox) throw new Error('No label');
    const x = labelBox.x + labelBox.width / 2;
    await page.mouse.move(x, before.y);
    await page.mouse.down();
    await page.mouse.move(x, before.y + 60, { steps: 8 });
    await page.mouse.up();
    await expect
      .poll(async () => Number(await line.getAttribute('data-price')), LIVE)
      .toBeLessThan(offered);
    const moved = Number(await line.getAttribute('data-price'));
    await expect
      .poll(async () => (await alertsOf(page)).map((a) => a.level), LIVE)
      .toEqual([moved]);

    // the market crosses the new level: the alert fires once
    const through = Math.round(moved) + 5;
    const from = Math.min(bid, Math.round(moved) - 5);
    await setQuote(page.request, SYMBOL, from, from + 0.5);
    await setQuote(page.request, SYMBOL, through, through + 0.5);
    await toast(page, new RegExp(`^Alert: ${SYMBOL}: alert \\d+ fired at`));
    await line.waitFor({ state: 'detached', ...LIVE });

    await page.getByRole('button', { name: 'Alerts', exact: true }).click();
    const panel = page.getByRole('complementary', { name: 'Alerts' });
    const fired = panel.getByRole('region', { name: 'Fired' });
    await fired
      .getByRole('listitem', { name: `${SYMBOL} Crossing ${moved}` })
      .waitFor({ state: 'visible', ...LIVE });
    await panel.getByRole('region', { name: 'Recent fires' }).waitFor();
    await screenshot(page, 'alerts-desktop-1440-light-panel');
    await setTheme(page, 'dark');
    await screenshot(page, 'alerts-desktop-1440-dark-panel');
    await page.setViewportSize({ width: 1024, height: 768 });
    await fired.waitFor();
    await screenshot(page, 'alerts-desktop-1024-dark-panel');
    await setTheme(page, 'light');
    await screenshot(page, 'alerts-desktop-1024-light-panel');
    await page.setViewportSize({ width: 1440, height: 900 });
    expect((await alertsOf(page)).map((a) => a.status)).toEqual(['fired']);
  });
});

describe('alert lines on a phone', () => {
  let page: Page;

  beforeAll(async () => {
    const context = await newContext(browser, 'phone', baseURL);
    page = await context.newPage();
    await loginThroughPage(page, password);
    await expectPath(page, '/phone');
    await chart(page).locator('[data-phase=ready]').waitFor(LIVE);
  });
  afterAll(async () => {
    await deleteAll(page);
    await releaseQuote(page.request, SYMBOL);
    await page.context().close();
  });

  it('an alert shows as a dashed line with a bell on the phone chart', async () => {
    const bid = await marketNow(page);
    await setQuote(page.request, SYMBOL, bid, bid + 0.5);
    const res = await page.request.post('/api/alerts', {
      data: { symbol_id: SYMBOL, kind: 'price', condition: 'crossing_up', level: bid + 40 },
    });
    expect(res.status()).toBe(201);
    await page.reload();
    await chart(page).locator('[data-phase=ready]').waitFor(LIVE);
    const line = lineLabel(page, /^Alert Crossing up [\d.]+$/);
    await line.waitFor({ state: 'visible', ...LIVE });
    await screenshot(page, 'alerts-phone-390-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await screenshot(page, 'alerts-phone-390-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
