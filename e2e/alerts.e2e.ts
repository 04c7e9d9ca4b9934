import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectPath, loginThroughPage } from './support/auth.ts';
import { launchBrowser, newContext, screenshot } from './support/browser.ts';
import { chartPoint, sessionApi } from './support/chart.ts';
import { closeChartPage, openChartPage, pinQuoteAtMarket } from './support/chartPage.ts';
import { chartLines, placeOf } from './support/chartLines.ts';
import { releaseQuote, setQuote } from './support/market.ts';
import { LIVE, clickInDialog, setTheme, toast } from './support/trading.ts';
import { settledBox } from './support/wait.ts';

/*
 * A price alert from the chart: right-click at a price, "Add alert at …", Create; its dashed
 * line with a bell shows at that price; dragged, it moves (the server has the new level);
 * the pinned quote then crosses it and the alert fires: a toast with its message, its line
 * goes, the Notifications button's unread count rises, opening the Notifications panel shows
 * the fire and clears the count, and the Alerts side panel lists it under Fired. Then an
 * indicator alert from the legend's bell (RSI 14 crossing up 70) and a drawing alert from a
 * horizontal line's bar, listed in words in the Alerts panel. BTCUSDT's quote is pinned where
 * the simulation has it; the journey deletes its alerts, drawings and indicators at the end.
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

const notificationsButton = (page: Page) =>
  page
    .getByRole('navigation', { name: 'Side panel buttons' })
    .getByRole('button', { name: /^Notifications/ });

/** The Notifications button's text: "Notifications" and its unread count. */
async function notificationsText(page: Page): Promise<string> {
  return (await notificationsButton(page).textContent()) ?? '';
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
    // what earlier journeys left for the demo user is read: the count starts at zero
    expect((await sessionApi(page, 'POST', '/api/notifications/read', { all: true })).status).toBe(
      200,
    );
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
    await clickInDialog(page, `New alert on ${SYMBOL}`, 'Create');
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
    const labelBox = await settledBox(line);
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
    await expect.poll(() => notificationsText(page), LIVE).not.toMatch(/unread/);
    const through = Math.round(moved) + 5;
    const from = Math.min(bid, Math.round(moved) - 5);
    await setQuote(page.request, SYMBOL, from, from + 0.5);
    await setQuote(page.request, SYMBOL, through, through + 0.5);
    await toast(page, new RegExp(`^Alert: ${SYMBOL}: alert \\d+ fired at`));
    await line.waitFor({ state: 'detached', ...LIVE });

    // the fire is a notification: the unread count rises; opened, it shows and the count clears
    await expect.poll(() => notificationsText(page), LIVE).toMatch(/1 unread/);
    await notificationsButton(page).click();
    const notes = page.getByRole('complementary', { name: 'Notifications' });
    const note = notes
      .getByRole('list', { name: 'Notifications list' })
      .getByRole('listitem')
      .filter({ hasText: 'Alert fired' })
      .first();
    await note.waitFor(LIVE);
    expect(await note.textContent()).toContain(`${SYMBOL}: alert`);
    expect(await note.textContent()).toContain('Unread');
    await screenshot(page, 'alerts-desktop-1440-light-notification');
    await expect.poll(() => notificationsText(page), LIVE).not.toMatch(/unread/);

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

/** The indicators of the first chart slot before the journey, put back after it. */
async function withIndicators(page: Page, indicators: unknown[]): Promise<unknown[]> {
  const answer = await sessionApi(page, 'GET', '/api/charts/indicators/0');
  expect(answer.status).toBe(200);
  const before = (answer.body as { indicators: unknown[] }).indicators;
  const put = await sessionApi(page, 'PUT', '/api/charts/indicators/0', { indicators });
  expect(put.status).toBe(200);
  return before;
}

const RSI = { id: 'alerts-rsi', kind: 'rsi', params: { period: 14 }, visible: true };
const SMA = { id: 'alerts-sma', kind: 'sma', params: { period: 10 }, visible: true };

describe("alerts from an indicator's and a drawing's menu, desktop", () => {
  let page: Page;
  let indicatorsBefore: unknown[] = [];
  const drawings: number[] = [];

  beforeAll(async () => {
    const context = await newContext(browser, 'desktop', baseURL);
    page = await context.newPage();
    await loginThroughPage(page, password);
    await expectPath(page, '/desktop');
    await chart(page).locator('[data-phase=ready]').waitFor(LIVE);
    await deleteAll(page);
    indicatorsBefore = await withIndicators(page, [RSI, SMA]);
    await page.reload();
    await chart(page).locator('[data-phase=ready]').waitFor(LIVE);
  });
  afterAll(async () => {
    await deleteAll(page);
    for (const id of drawings) await sessionApi(page, 'DELETE', `/api/charts/drawings/${id}`);
    await sessionApi(page, 'PUT', '/api/charts/indicators/0', { indicators: indicatorsBefore });
    await page.context().close();
  });

  it("RSI 14 crossing up 70 from the legend's bell; a horizontal line's alert from its bar", async () => {
    // the indicator's bell in the legend (in the dark theme first, for its picture)
    const bell = chart(page).getByRole('button', { name: 'Add alert on RSI 14' });
    await bell.waitFor({ state: 'visible', ...LIVE });
    await setTheme(page, 'dark');
    await bell.click();
    let dialog = page.getByRole('dialog', { name: `New alert on ${SYMBOL}` });
    await dialog.getByText('Indicator: RSI 14').waitFor();
    await screenshot(page, 'alerts-desktop-1440-dark-indicator-dialog');
    await clickInDialog(page, `New alert on ${SYMBOL}`, 'Cancel');
    await dialog.waitFor({ state: 'detached' });
    await setTheme(page, 'light');
    await bell.click();
    dialog = page.getByRole('dialog', { name: `New alert on ${SYMBOL}` });
    await dialog.getByText('Indicator: RSI 14').waitFor();
    expect(await dialog.getByRole('spinbutton', { name: 'Value' }).inputValue()).toBe('70');
    await dialog.getByRole('combobox', { name: 'Condition' }).click();
    await page.getByTitle('Crossing up', { exact: true }).click();
    await screenshot(page, 'alerts-desktop-1440-light-indicator-dialog');
    await clickInDialog(page, `New alert on ${SYMBOL}`, 'Create');
    await toast(page, `Alert set: ${SYMBOL} RSI 14 Crossing up 70`);
    await dialog.waitFor({ state: 'detached' });

    // a horizontal line, selected once drawn: its bar's bell
    await page
      .getByRole('toolbar', { name: 'Chart tools' })
      .first()
      .getByRole('button', { name: 'Horizontal line', exact: true })
      .click();
    const saved = page.waitForResponse(
      (r) => r.url().includes('/api/charts/drawings') && r.request().method() === 'POST',
    );
    const canvas = chart(page).getByTestId('chart-canvas');
    const at = await chartPoint(canvas, 0.4, 0.3);
    await page.mouse.click(at.x, at.y);
    const answer = await saved;
    drawings.push(((await answer.json()) as { id: number }).id);
    const lineBell = page.getByRole('button', { name: 'Add alert on Horizontal line' });
    await lineBell.waitFor({ state: 'visible', ...LIVE });
    await page.mouse.move(5, 5);
    await screenshot(page, 'alerts-desktop-1440-light-drawing-bar');
    await lineBell.click();
    dialog = page.getByRole('dialog', { name: `New alert on ${SYMBOL}` });
    await dialog.getByText('Drawing: Horizontal line').waitFor();
    await screenshot(page, 'alerts-desktop-1440-light-drawing-dialog');
    await clickInDialog(page, `New alert on ${SYMBOL}`, 'Create');
    await toast(page, `Alert set: ${SYMBOL} Crossing drawn line`);

    // both listed in words among the active alerts
    await page.getByRole('button', { name: 'Alerts', exact: true }).click();
    const panel = page.getByRole('complementary', { name: 'Alerts' });
    const active = panel.getByRole('region', { name: 'Active' });
    await active
      .getByRole('listitem', { name: `${SYMBOL} RSI 14 Crossing up 70` })
      .waitFor({ state: 'visible', ...LIVE });
    await active.getByRole('listitem', { name: `${SYMBOL} Crossing drawn line` }).waitFor();
    const kinds = (await alertsOf(page)) as unknown as { kind: string }[];
    expect(kinds.map((a) => a.kind).sort()).toEqual(['drawing', 'indicator']);
    await screenshot(page, 'alerts-desktop-1440-light-kinds-panel');
    await setTheme(page, 'dark');
    await screenshot(page, 'alerts-desktop-1440-dark-kinds-panel');
    await page.setViewportSize({ width: 1024, height: 768 });
    await active.waitFor();
    await screenshot(page, 'alerts-desktop-1024-dark-kinds-panel');
    await setTheme(page, 'light');
    await screenshot(page, 'alerts-desktop-1024-light-kinds-panel');
    await page.setViewportSize({ width: 1440, height: 900 });
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

  it("an indicator's bell opens the Add alert dialog on the phone", async () => {
    const before = await withIndicators(page, [RSI]);
    try {
      await page.reload();
      await chart(page).locator('[data-phase=ready]').waitFor(LIVE);
      await chart(page).getByRole('button', { name: 'Add alert on RSI 14' }).click();
      const dialog = page.getByRole('dialog', { name: `New alert on ${SYMBOL}` });
      await dialog.getByText('Indicator: RSI 14').waitFor();
      await screenshot(page, 'alerts-phone-390-light-indicator-dialog');
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      await screenshot(page, 'alerts-phone-390-dark-indicator-dialog');
      await page.emulateMedia({ colorScheme: 'light' });
      await clickInDialog(page, `New alert on ${SYMBOL}`, 'Cancel');
      await dialog.waitFor({ state: 'detached' });
    } finally {
      await sessionApi(page, 'PUT', '/api/charts/indicators/0', { indicators: before });
    }
  });
});
