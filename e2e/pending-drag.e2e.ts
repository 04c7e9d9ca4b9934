import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot } from './support/browser.ts';
import { closeChartPage, openChartPage, pinQuoteAtMarket } from './support/chartPage.ts';
import {
  LIVE,
  clickInDialog,
  moveMarket,
  placeOrder,
  rowWithId,
  setTheme,
  ticket,
  toast,
  tradeRows,
} from './support/trading.ts';
import { dragUntilAsked } from './support/chart.ts';
import { askedPrice, chartLines, lineY, placeOf, yOf } from './support/chartLines.ts';

/*
 * Changing what already works by dragging its line on the chart: a TP line dragged shows a
 * Modify TP/SL row with the new TP in the Order Logs tab; a pending order's line dragged
 * changes its price (confirmed on its label) and the Pending table shows it, with a Modify
 * Order row in the log; a pending line dropped inside the band around the ask snaps back
 * with the ticket's message. Desktop with the mouse, the phone with a finger. BTCUSDT's
 * quote is pinned next to where the simulation has it; the journeys leave no position or
 * pending order of the demo user behind.
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

const { lineLabel, marketNow, mouseDrag, touchDrag } = chartLines(SYMBOL);

// Column of the pending price in the Pending table.
const PEND_PRICE = 3;

describe('dragging lines changes orders, desktop', () => {
  let page: Page;
  let bid = 0;
  let orderId = '';
  let pId = '';

  beforeAll(async () => {
    page = await openChartPage(browser, { baseURL, password, viewport: 'desktop', symbol: SYMBOL });
    bid = await marketNow(page);
  });
  afterAll(async () => {
    await closeChartPage(page, SYMBOL);
  });

  it('a TP line dragged: the Order Logs tab shows a Modify TP/SL row with the new TP', async () => {
    await moveMarket(page, bid, bid + 0.5, ticket(page));
    const open = bid + 0.5;
    await ticket(page).getByRole('checkbox', { name: 'Take Profit' }).check();
    await page.getByLabel('TP price').fill((open * 1.002).toFixed(1));
    orderId = await placeOrder(page, 'Buy');
    await ticket(page).getByRole('checkbox', { name: 'Take Profit' }).uncheck();
    const position = lineLabel(page, `Position ${orderId}: Buy 1`);
    const tpLine = lineLabel(page, new RegExp(`^TP of position ${orderId} at`));
    await position.waitFor({ state: 'visible', ...LIVE });
    await tpLine.waitFor({ state: 'visible' });

    await dragUntilAsked(tpLine, async () => {
      const a = await placeOf(position);
      const b = await placeOf(tpLine);
      await mouseDrag(page, b.y, yOf(b.price + (b.price - a.price) * 0.5, a, b));
    });
    const newTp = await askedPrice(tpLine);
    await tpLine.getByRole('button', { name: 'Confirm' }).click();
    await toast(page, 'Take Profit / Stop Loss updated successfully');

    await page.getByRole('tab', { name: 'Order Logs', exact: true }).click();
    const modify = tradeRows(page)
      .filter({ hasText: 'Modify TP/SL' })
      .filter({ hasText: newTp })
      .first();
    await modify.waitFor(LIVE);
    // side, action, the open volume; status Filled
    expect(await modify.textContent()).toContain(`${SYMBOL}BuyModify TP/SL1`);
    expect(await modify.textContent()).toContain('Filled');
    await screenshot(page, 'pending-drag-desktop-1440-order-log');
    await page.getByRole('tab', { name: 'Positions', exact: true }).click();
  });

  it('a pending line dragged: confirmed, the Pending table shows the new price', async () => {
    await ticket(page).getByText('Limit', { exact: true }).click();
    await page.getByLabel('Limit Price').fill((bid * 0.998).toFixed(1));
    pId = await placeOrder(page, 'Buy', { kind: 'pending' });
    await ticket(page).getByText('Market', { exact: true }).click();
    const line = lineLabel(page, new RegExp(`^Pending order ${pId}: Buy Limit 1 GTC at`));
    await line.waitFor({ state: 'visible', ...LIVE });
    const position = lineLabel(page, `Position ${orderId}: Buy 1`);
    const from = Number(await line.getAttribute('data-price'));
    const open = Number(await position.getAttribute('data-price'));
    // a quarter of the way up to the position's line: between two lines on screen, so inside
    // the pane whatever range the bars span (below the order the pane may end at its line),
    // and outside the band around the market a limit price may not enter (half way up is at
    // its edge: the order sits 0.2 % below the bid, the band reaches 0.1 % below it)
    await dragUntilAsked(line, async () => {
      const a = await placeOf(position);
      const b = await placeOf(line);
      await mouseDrag(page, b.y, yOf(b.price + (a.price - b.price) * 0.25, a, b));
    });
    const asked = await askedPrice(line);
    expect(Number(asked)).toBeGreaterThan(from);
    expect(Number(asked)).toBeLessThan(open);
    await screenshot(page, 'pending-drag-desktop-1440-light-confirm');
    await setTheme(page, 'dark');
    await screenshot(page, 'pending-drag-desktop-1440-dark-confirm');
    await setTheme(page, 'light');
    await line.getByRole('button', { name: 'Confirm' }).click();
    await toast(page, 'Pending order updated successfully');
    await expect.poll(() => line.getAttribute('data-price'), LIVE).toBe(String(Number(asked)));

    await page.getByRole('tab', { name: 'Pending', exact: true }).click();
    const row = rowWithId(page, pId);
    await expect
      .poll(async () => (await row.locator('td').nth(PEND_PRICE).textContent())?.trim(), LIVE)
      .toBe(asked);
    await screenshot(page, 'pending-drag-desktop-1440-pending-table');
    await page.getByRole('tab', { name: 'Order Logs', exact: true }).click();
    await tradeRows(page)
      .filter({ hasText: 'Modify Order' })
      .filter({ hasText: asked })
      .first()
      .waitFor(LIVE);
    await page.getByRole('tab', { name: 'Positions', exact: true }).click();
  });

  it('a pending line dropped at the ask snaps back with the ticket’s message', async () => {
    const line = lineLabel(page, new RegExp(`^Pending order ${pId}: Buy Limit 1 GTC at`));
    const position = lineLabel(page, `Position ${orderId}: Buy 1`);
    const before = await line.getAttribute('data-price');
    const a = await placeOf(position);
    const b = await placeOf(line);
    // the ask is the position's open price: inside 0.999–1.001 of it no limit price may lie
    await mouseDrag(page, b.y, yOf(a.price, a, b));
    const message = await toast(
      page,
      /^Limit price must be between [\d.]+ and [\d.]+ \(below the market\) or between [\d.]+ and [\d.]+ \(above the market\)$/,
    );
    expect(message).toMatch(/^Limit price must be between/);
    expect(await line.getAttribute('data-price')).toBe(before);
    await expect.poll(async () => Math.abs((await lineY(line)) - b.y)).toBeLessThan(2);
    expect(await line.getByRole('button', { name: 'Confirm' }).count()).toBe(0);
    await page.setViewportSize({ width: 1024, height: 768 });
    await line.waitFor({ state: 'visible' });
    await screenshot(page, 'pending-drag-desktop-1024-light');
    await setTheme(page, 'dark');
    await screenshot(page, 'pending-drag-desktop-1024-dark');
    await setTheme(page, 'light');
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('leaves nothing behind: the order canceled, the position closed', async () => {
    const line = lineLabel(page, new RegExp(`^Pending order ${pId}: Buy Limit 1 GTC at`));
    await line.getByRole('button', { name: `Cancel pending order ${pId}` }).click();
    const canceling = await clickInDialog(page, 'Cancel Pending Order', 'Cancel Order');
    await screenshot(page, 'pending-drag-desktop-cancel');
    await toast(page, 'Pending order canceled successfully');
    await canceling.waitFor({ state: 'detached' });
    await line.waitFor({ state: 'detached', ...LIVE });
    const position = lineLabel(page, `Position ${orderId}: Buy 1`);
    await position.getByRole('button', { name: `Close position ${orderId}` }).click();
    const closing = await clickInDialog(page, 'Close Position', 'Close Position');
    await toast(page, 'Position closed successfully');
    await closing.waitFor({ state: 'detached' });
    await position.waitFor({ state: 'detached' });
  });
});

describe('dragging a pending line, phone', () => {
  let page: Page;

  beforeAll(async () => {
    page = await openChartPage(browser, { baseURL, password, viewport: 'phone', symbol: SYMBOL });
  });
  afterAll(async () => {
    await closeChartPage(page, SYMBOL);
  });

  it('a finger drags the pending line; the Pending tab shows the new price', async () => {
    const bid = await pinQuoteAtMarket(page, SYMBOL);
    await page.getByRole('button', { name: `Buy ${SYMBOL}` }).click();
    const modal = page.getByRole('dialog', { name: `${SYMBOL} Paper Trading` });
    await modal.waitFor();
    await moveMarket(page, bid, bid + 0.5, modal);
    await modal.getByText('Limit', { exact: true }).click();
    await modal.getByLabel('Limit Price').fill((bid * 0.999 - 20).toFixed(1));
    const pId = await placeOrder(page, 'Buy', { where: modal, kind: 'pending' });
    await modal.getByRole('button', { name: 'Close' }).click();
    await modal.waitFor({ state: 'hidden' });

    const line = lineLabel(page, new RegExp(`^Pending order ${pId}: Buy Limit 1 GTC at`));
    await line.waitFor({ state: 'visible', ...LIVE });
    await dragUntilAsked(line, async () => {
      const from = await lineY(line);
      await touchDrag(page, from, from + 24);
    });
    const asked = await askedPrice(line);
    await screenshot(page, 'pending-drag-phone-390-light-confirm');
    await line.getByRole('button', { name: 'Confirm' }).click();
    await toast(page, 'Pending order updated successfully');
    await expect.poll(() => line.getAttribute('data-price'), LIVE).toBe(String(Number(asked)));
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    await page.getByRole('tab', { name: 'Pending', exact: true }).click();
    const row = rowWithId(page, pId);
    await expect.poll(async () => (await row.textContent()) ?? '', LIVE).toContain(asked);
    await screenshot(page, 'pending-drag-phone-390-light-pending');
    const bar = page.getByRole('navigation', { name: 'Main navigation' });
    await bar.getByRole('button', { name: 'My' }).click();
    await page.getByText('Dark', { exact: true }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await bar.getByRole('button', { name: 'Trading' }).click();
    await page.getByRole('tab', { name: 'Order Logs', exact: true }).click();
    await tradeRows(page).filter({ hasText: 'Modify Order' }).first().waitFor(LIVE);
    await screenshot(page, 'pending-drag-phone-390-dark-order-log');

    // cancel it from the chart, back in the light theme
    await page.getByRole('tab', { name: 'Chart', exact: true }).click();
    await line.waitFor({ state: 'visible' });
    await screenshot(page, 'pending-drag-phone-390-dark-chart');
    await line.getByRole('button', { name: `Cancel pending order ${pId}` }).click();
    await clickInDialog(page, 'Cancel Pending Order', 'Cancel Order');
    await toast(page, 'Pending order canceled successfully');
    await bar.getByRole('button', { name: 'My' }).click();
    await page.getByText('Light', { exact: true }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  });
});
