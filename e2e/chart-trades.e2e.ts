import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot } from './support/browser.ts';
import { closeChartPage, openChartPage, pinQuoteAtMarket } from './support/chartPage.ts';
import { setQuote } from './support/market.ts';
import {
  clearTrades,
  clickInDialog,
  LIVE,
  moveMarket,
  placeOrder,
  rowWithId,
  setTheme,
  ticket,
  toast,
  tradeRows,
} from './support/trading.ts';
import { dragUntilAsked } from './support/chart.ts';
import { askedPrice, chartLines, lineY, yOf } from './support/chartLines.ts';
import { settledBox } from './support/wait.ts';

/*
 * The trader's own trades on the chart: a position's line (with its TP and SL) appears after
 * an order; dragging the TP line changes the TP in the positions table, and the engine then
 * closes the position at the dragged level (order log: Take profit at that price); a drag
 * the Edit Order rules refuse snaps back with their message; a pending order's line cancels
 * it; on a phone a finger drags the TP. BTCUSDT's quote is pinned with the test-only feed
 * control next to where the simulation has it, so the history bars and the lines share the
 * price scale.
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

// ---- helpers ----

const { chart, lineLabel, marketNow, mouseDrag, touchDrag } = chartLines(SYMBOL);

/**
 * Taps the chart's bars from the newest leftwards (low in the volume pane, away from the
 * trade lines) until a bar with markers shows their details; answers that box.
 */
async function openMarkerDetails(page: Page): Promise<Locator> {
  const details = page.getByRole('tooltip', { name: 'Trades on this bar' });
  const canvas = chart(page).getByTestId('chart-canvas');
  const box = await canvas.boundingBox();
  if (!box) throw new Error('No chart');
  const y = box.y + box.height * 0.86;
  // the price scale is at least 60 px wide; 3 px steps meet every 7 px bar
  for (let x = box.x + box.width - 62; x > box.x + box.width * 0.4; x -= 3) {
    await page.mouse.click(x, y);
    if (await details.isVisible()) return details;
  }
  throw new Error('No bar with markers answered a click');
}

// Columns of the wide positions table.
const POS = { tp: 6, sl: 7 };

describe('trades on the chart, desktop', () => {
  let page: Page;
  let orderId = '';
  let bid = 0;
  let newTp = '';

  beforeAll(async () => {
    page = await openChartPage(browser, { baseURL, password, viewport: 'desktop', symbol: SYMBOL });
    bid = await marketNow(page);
  });
  afterAll(async () => {
    await closeChartPage(page, SYMBOL);
  });

  it('a position’s line, its TP and SL appear after an order', async () => {
    await moveMarket(page, bid, bid + 0.5, ticket(page));
    const open = bid + 0.5; // a buy fills at the ask
    const tp = (open * 1.002).toFixed(1);
    const sl = (open * 0.998).toFixed(1);
    await ticket(page).getByRole('checkbox', { name: 'Take Profit' }).check();
    await page.getByLabel('TP price').fill(tp);
    await ticket(page).getByRole('checkbox', { name: 'Stop Loss' }).check();
    await page.getByLabel('SL price').fill(sl);
    orderId = await placeOrder(page, 'Buy');

    const position = lineLabel(page, `Position ${orderId}: Buy 1`);
    await position.waitFor({ state: 'visible', ...LIVE });
    expect(await position.getAttribute('data-price')).toBe(String(open));
    // the floating P&L at the bid: (bid − open) × 1 = −0.50
    await expect.poll(() => position.textContent(), LIVE).toContain('-0.50');
    const tpLine = lineLabel(page, new RegExp(`^TP of position ${orderId} at ${tp}`));
    const slLine = lineLabel(page, new RegExp(`^SL of position ${orderId} at ${sl}`));
    await tpLine.waitFor({ state: 'visible' });
    await slLine.waitFor({ state: 'visible' });
    // TP above the open price, SL below it
    expect(await lineY(tpLine)).toBeLessThan(await lineY(position));
    expect(await lineY(slLine)).toBeGreaterThan(await lineY(position));
    // the P&L moves with the market, without a reload
    await moveMarket(page, bid + 10, bid + 10.5, ticket(page));
    await expect.poll(() => position.textContent(), LIVE).toContain('+9.50');
    await expect
      .poll(
        async () =>
          Number(await chart(page).getByTestId('chart-canvas').getAttribute('data-markers')),
        LIVE,
      )
      .toBeGreaterThanOrEqual(1); // the fill's arrow
    await screenshot(page, 'chart-trades-desktop-1440-light');
    await setTheme(page, 'dark');
    await screenshot(page, 'chart-trades-desktop-1440-dark');
    await page.setViewportSize({ width: 1024, height: 768 });
    await position.waitFor({ state: 'visible' });
    await screenshot(page, 'chart-trades-desktop-1024-dark');
    await setTheme(page, 'light');
    await screenshot(page, 'chart-trades-desktop-1024-light');
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('dragging the TP line changes the TP in the positions table', async () => {
    const position = lineLabel(page, `Position ${orderId}: Buy 1`);
    const tpLine = lineLabel(page, new RegExp(`^TP of position ${orderId} at`));
    const open = {
      price: Number(await position.getAttribute('data-price')),
      y: await lineY(position),
    };
    const tp = { price: Number(await tpLine.getAttribute('data-price')), y: await lineY(tpLine) };
    const target = tp.price + (tp.price - open.price) * 0.5;
    await mouseDrag(page, tp.y, yOf(target, open, tp));

    await tpLine.getByRole('button', { name: 'Confirm' }).waitFor();
    newTp = await askedPrice(tpLine, 'TP');
    expect(Math.abs(Number(newTp) - target)).toBeLessThan((tp.price - open.price) * 0.2);
    await screenshot(page, 'chart-trades-desktop-confirm');
    await tpLine.getByRole('button', { name: 'Confirm' }).click();
    await toast(page, 'Take Profit / Stop Loss updated successfully');

    const row = rowWithId(page, orderId);
    await expect
      .poll(async () => (await row.locator('td').nth(POS.tp).textContent())?.trim())
      .toBe(newTp);
    // the SL stays where it was
    const slLine = lineLabel(page, new RegExp(`^SL of position ${orderId}`));
    expect(Number((await row.locator('td').nth(POS.sl).textContent())?.trim())).toBe(
      Number(await slLine.getAttribute('data-price')),
    );
    await expect.poll(() => tpLine.getAttribute('data-price')).toBe(String(Number(newTp)));
  });

  it('a TP dragged below the open price snaps back with the validator’s message', async () => {
    const position = lineLabel(page, `Position ${orderId}: Buy 1`);
    const tpLine = lineLabel(page, new RegExp(`^TP of position ${orderId} at`));
    const before = await tpLine.getAttribute('data-price');
    const from = await lineY(tpLine);
    // this time by its label, which is a handle too
    const label = await settledBox(tpLine);
    await mouseDrag(page, from, (await lineY(position)) + 25, label.x + 12);
    const message = await toast(page, /^TP price must be between [\d.]+ and [\d.]+$/);
    expect(message).toMatch(/^TP price must be between/);
    expect(await tpLine.getAttribute('data-price')).toBe(before);
    await expect.poll(async () => Math.abs((await lineY(tpLine)) - from)).toBeLessThan(2);
    expect(await tpLine.getByRole('button', { name: 'Confirm' }).count()).toBe(0);
    await screenshot(page, 'chart-trades-desktop-refused');
  });

  it('the engine closes at the dragged TP: the order log says Take profit at that price', async () => {
    const tp = Number(newTp);
    await setQuote(page.request, SYMBOL, tp, tp + 0.5);
    await lineLabel(page, `Position ${orderId}: Buy 1`).waitFor({ state: 'detached', ...LIVE });
    await page.getByRole('tab', { name: 'Order Logs', exact: true }).click();
    const close = tradeRows(page)
      .filter({ hasText: 'Take profit' })
      .filter({ hasText: newTp })
      .first();
    await close.waitFor(LIVE);
    expect(await close.textContent()).toContain(`${SYMBOL}SellClose1`);
    // the open and the close fill as arrows on the chart
    await expect
      .poll(
        async () =>
          Number(await chart(page).getByTestId('chart-canvas').getAttribute('data-markers')),
        LIVE,
      )
      .toBeGreaterThanOrEqual(2);
    await screenshot(page, 'chart-trades-desktop-tp-hit');
    await page.getByRole('tab', { name: 'Positions', exact: true }).click();
  });

  it('a pending order’s line cancels it through the Cancel Pending Order dialog', async () => {
    await moveMarket(page, bid, bid + 0.5, ticket(page));
    await ticket(page).getByRole('checkbox', { name: 'Take Profit' }).uncheck();
    await ticket(page).getByRole('checkbox', { name: 'Stop Loss' }).uncheck();
    await ticket(page).getByText('Limit', { exact: true }).click();
    await page.getByLabel('Limit Price').fill((bid * 0.998).toFixed(1));
    await ticket(page).getByText('GFD', { exact: true }).click();
    const pId = await placeOrder(page, 'Buy', { kind: 'pending' });
    const line = lineLabel(page, new RegExp(`^Pending order ${pId}: Buy Limit 1 GFD at`));
    await line.waitFor({ state: 'visible', ...LIVE });
    await screenshot(page, 'chart-trades-desktop-pending');
    await line.getByRole('button', { name: `Cancel pending order ${pId}` }).click();
    await clickInDialog(page, 'Cancel Pending Order', 'Cancel Order');
    await toast(page, 'Pending order canceled successfully');
    await line.waitFor({ state: 'detached' });
    await ticket(page).getByText('Market', { exact: true }).click();
  });

  it('fills of one bar merge into one marker with a count; a click on the bar lists them', async () => {
    await moveMarket(page, bid, bid + 0.5, ticket(page));
    const canvas = chart(page).getByTestId('chart-canvas');
    const before = Number(await canvas.getAttribute('data-markers'));
    for (let i = 0; i < 4; i++) await placeOrder(page, 'Buy');
    await expect
      .poll(async () => Number(await canvas.getAttribute('data-markers')), LIVE)
      .toBeGreaterThanOrEqual(before + 4);
    // fewer arrows drawn than fills: those of one bar are one arrow with a count
    expect(Number(await canvas.getAttribute('data-marker-groups'))).toBeLessThan(
      Number(await canvas.getAttribute('data-markers')),
    );
    const details = await openMarkerDetails(page);
    const open = (bid + 0.5).toFixed(1);
    await expect
      .poll(async () => (await details.getByText(`Buy 1 at ${open}`).count()) >= 2)
      .toBe(true);
    await screenshot(page, 'chart-trades-markers-1440-light');
    await setTheme(page, 'dark');
    await screenshot(page, 'chart-trades-markers-1440-dark');
    await details.getByRole('button', { name: 'Close details' }).click();
    await details.waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 1024, height: 768 });
    await openMarkerDetails(page);
    await screenshot(page, 'chart-trades-markers-1024-dark');
    await setTheme(page, 'light');
    await screenshot(page, 'chart-trades-markers-1024-light');
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 1440, height: 900 });
    await clearTrades(page, SYMBOL);
  });
});

describe('trades on the chart, phone', () => {
  let page: Page;
  let orderId = '';

  beforeAll(async () => {
    page = await openChartPage(browser, { baseURL, password, viewport: 'phone', symbol: SYMBOL });
  });
  afterAll(async () => {
    await closeChartPage(page, SYMBOL);
  });

  it('a finger drags the TP line; the position closes from its line', async () => {
    const bid = await pinQuoteAtMarket(page, SYMBOL);
    await page.getByRole('button', { name: `Buy ${SYMBOL}` }).click();
    const modal = page.getByRole('dialog', { name: `${SYMBOL} Paper Trading` });
    await modal.waitFor();
    await moveMarket(page, bid, bid + 0.5, modal);
    const open = bid + 0.5;
    await modal.getByRole('checkbox', { name: 'Take Profit' }).check();
    await modal.getByLabel('TP price').fill((open * 1.002).toFixed(1));
    orderId = await placeOrder(page, 'Buy', { where: modal });
    await modal.getByRole('button', { name: 'Close' }).click();
    await modal.waitFor({ state: 'hidden' });

    const position = lineLabel(page, `Position ${orderId}: Buy 1`);
    const tpLine = lineLabel(page, new RegExp(`^TP of position ${orderId} at`));
    await position.waitFor({ state: 'visible', ...LIVE });
    await tpLine.waitFor({ state: 'visible' });
    await screenshot(page, 'chart-trades-phone-light');

    await dragUntilAsked(tpLine, async () => {
      const a = {
        price: Number(await position.getAttribute('data-price')),
        y: await lineY(position),
      };
      const b = { price: Number(await tpLine.getAttribute('data-price')), y: await lineY(tpLine) };
      // towards the open price (still inside the TP range): the TP sits at the top of the
      // scale, which takes the lines in
      await touchDrag(page, b.y, yOf(b.price - (b.price - a.price) * 0.25, a, b));
    });
    const asked = await askedPrice(tpLine, 'TP');
    await screenshot(page, 'chart-trades-phone-confirm');
    await tpLine.getByRole('button', { name: 'Confirm' }).click();
    await toast(page, 'Take Profit / Stop Loss updated successfully');
    await expect.poll(() => tpLine.getAttribute('data-price')).toBe(String(Number(asked)));

    // the page did not scroll sideways or away under the finger
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    const bar = page.getByRole('navigation', { name: 'Main navigation' });
    await bar.getByRole('button', { name: 'My' }).click();
    await page.getByText('Dark', { exact: true }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await bar.getByRole('button', { name: 'Trading' }).click();
    await position.waitFor({ state: 'visible' });
    await screenshot(page, 'chart-trades-phone-dark');

    await position.getByRole('button', { name: `Close position ${orderId}` }).click();
    await clickInDialog(page, 'Close Position', 'Close Position');
    await toast(page, 'Position closed successfully');
    await position.waitFor({ state: 'detached' });
    await tpLine.waitFor({ state: 'detached' });
    // back to the light theme the other journeys expect
    await bar.getByRole('button', { name: 'My' }).click();
    await page.getByText('Light', { exact: true }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  });
});
