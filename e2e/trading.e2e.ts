import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectPath, loginThroughPage } from './support/auth.ts';
import { launchBrowser, newContext, screenshot } from './support/browser.ts';
import { releaseQuote, setQuote } from './support/market.ts';
import { idOfNewToast } from './support/toasts.ts';
import { settledBox } from './support/wait.ts';
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

/*
 * The trader's journeys on the trading UI against the started product: orders, positions
 * with live P&L, TP/SL edits, closes, pending orders, a take-profit hit by the live feed,
 * account switching, and the same on a phone. BTCUSDT trades around the clock; the
 * journeys pin its quote with the product's test-only feed control, so every price they
 * see is one they set.
 */

const baseURL = inject('baseURL');
const password = inject('demoPassword');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

// ---- helpers ----

/** The text of the `index`-th cell of a row. */
async function cellText(row: Locator, index: number): Promise<string> {
  return ((await row.locator('td').nth(index).textContent()) ?? '').trim();
}

/**
 * Runs `act` (the click that places an order) and answers the id in the success toast it
 * brought up. Toasts of orders placed a moment ago may still be on screen, so only a text
 * that was not there before counts (order ids never repeat).
 */
/** A price inside the range of a 'TP range: a ~ b' hint, on a 0.1 tick. */
function midOfRange(hint: string): string {
  const match = /([\d.]+) ~ ([\d.]+)/.exec(hint);
  if (!match) throw new Error(`No range in "${hint}"`);
  return ((Number(match[1]) + Number(match[2])) / 2).toFixed(1);
}

async function bottomTab(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name, exact: true }).click();
}

async function switchAccount(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: /^Account:/ }).click();
  await page.getByRole('menuitem', { name: 'Trading Accounts' }).hover();
  await page.getByRole('menuitem', { name: new RegExp(name) }).click();
  await toast(page, 'Trading account switched');
  await page.getByRole('button', { name: `Account: ${name}` }).waitFor();
}

async function chooseSide(page: Page, side: 'Buy' | 'Sell'): Promise<void> {
  await ticket(page).getByRole('radio', { name: side }).click();
}

async function chooseOrderType(page: Page, type: 'Market' | 'Limit'): Promise<void> {
  await ticket(page).getByText(type, { exact: true }).click();
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

/** Waits until the open full-screen modal has finished its opening animation. */
async function fullScreenModalOpen(page: Page): Promise<void> {
  const frame = page.locator('.fullscreen-modal .ant-modal-container').last();
  const width = page.viewportSize()?.width ?? 0;
  await expect
    .poll(async () => (await frame.boundingBox())?.width ?? 0)
    .toBeGreaterThanOrEqual(width);
  await page.waitForFunction(() => !document.querySelector('.fullscreen-modal[class*="zoom"]'));
}

/** Column indexes of the settlements (Orders): the outcome first. */
const SETTLE = {
  openSide: 1,
  volume: 2,
  closePrice: 4,
  profit: 5,
  reason: 6,
  closeSide: 8,
  date: 11,
};
// Columns of the wide positions table: the live figures first.
const POS = { side: 1, volume: 2, open: 3, market: 4, pnl: 5, tp: 6, sl: 7, settled: 8, id: 13 };

describe('a trader on a desktop', () => {
  let page: Page;
  let orderId = '';

  beforeAll(async () => {
    const context = await newContext(browser, 'desktop', baseURL);
    page = await context.newPage();
    await loginThroughPage(page, password);
    await expectPath(page, '/desktop');
  });
  afterAll(async () => {
    await releaseQuote(page.request, 'BTCUSDT');
    await page.context().close();
  });

  it('buys at market; the position row shows a moving P&L', async () => {
    await moveMarket(page, 50_000, 50_000.5);
    const place = page.getByRole('button', { name: 'Place Buy Order' });
    await expect.poll(() => place.isEnabled(), { timeout: 20_000 }).toBe(true);
    await screenshot(page, 'trading-desktop-ticket');
    orderId = await idOfNewToast(page, /^Order successful! Order ID: \d+$/, () => place.click());

    const row = rowWithId(page, orderId);
    await row.waitFor();
    expect(await cellText(row, 0)).toBe('BTCUSDT');
    expect(await cellText(row, POS.side)).toBe('Buy');
    expect(await cellText(row, POS.volume)).toBe('1');
    expect(await cellText(row, POS.open)).toBe('50000.5'); // the ask
    await expect.poll(async () => Number(await cellText(row, POS.pnl)), LIVE).toBe(-0.5); // at the bid
    // the live feed moves the unrealized P&L without any reload
    await markDocument(page);
    await moveMarket(page, 50_100, 50_100.5);
    await expect.poll(async () => Number(await cellText(row, POS.pnl)), LIVE).toBe(99.5);
    await expectNotReloaded(page);
    await screenshot(page, 'trading-desktop-position');
    await setTheme(page, 'dark');
    await screenshot(page, 'trading-desktop-position-dark');
    await setTheme(page, 'light');
  });

  it('edits TP and SL in the Edit Order panel', async () => {
    const row = rowWithId(page, orderId);
    await page.getByRole('button', { name: `Edit BTCUSDT ${orderId}` }).click();
    const panel = page.getByRole('complementary', { name: 'Trading' });
    await panel.getByRole('heading', { name: 'Edit Order' }).waitFor();
    for (const label of ['Symbol', 'Direction', 'Available Volume', 'Total Volume', 'Open Price']) {
      await panel.getByText(label, { exact: true }).waitFor();
    }
    expect(await panel.getByText('Not Set').count()).toBe(2);
    await panel.getByRole('checkbox', { name: 'TP' }).check();
    await panel.getByRole('checkbox', { name: 'SL' }).check();
    const tpHint = (await panel.getByText(/^TP range:/).textContent()) ?? '';
    const slHint = (await panel.getByText(/^SL range:/).textContent()) ?? '';
    // new levels start the default 10 ticks (0.1) inside their range, never on its edge
    const edge = (hint: string, end: 1 | 2) => Number(/([\d.]+) ~ ([\d.]+)/.exec(hint)![end]);
    const startTp = Number(await panel.getByLabel('TP price').inputValue());
    const startSl = Number(await panel.getByLabel('SL price').inputValue());
    expect(startTp).toBeGreaterThanOrEqual(edge(tpHint, 1) + 0.99);
    expect(startTp).toBeLessThanOrEqual(edge(tpHint, 2));
    expect(startSl).toBeLessThanOrEqual(edge(slHint, 2) - 0.99);
    expect(startSl).toBeGreaterThanOrEqual(edge(slHint, 1));
    await screenshot(page, 'trading-desktop-edit-order-start');
    const tp = midOfRange(tpHint);
    const sl = midOfRange(slHint);
    // a TP below the open price is refused inline
    await panel.getByLabel('TP price').fill(sl);
    await panel.getByRole('button', { name: 'Save' }).click();
    await panel
      .getByRole('alert')
      .filter({ hasText: /^TP price must be between/ })
      .waitFor();
    await screenshot(page, 'trading-desktop-edit-order');
    await panel.getByLabel('TP price').fill(tp);
    await panel.getByLabel('SL price').fill(sl);
    await panel.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Take Profit / Stop Loss updated successfully');
    await panel.getByRole('heading', { name: 'BTCUSDT Paper Trading' }).waitFor();
    await expect.poll(() => cellText(row, POS.tp)).toBe(tp);
    expect(await cellText(row, POS.sl)).toBe(sl);
  });

  it('closes part of the position; a settlement row and order log rows appear', async () => {
    const row = rowWithId(page, orderId);
    await page.getByRole('button', { name: `Close BTCUSDT ${orderId}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Close Position' });
    const quantity = dialog.getByLabel('Close quantity');
    expect(await quantity.inputValue()).toBe('1.00'); // the available volume
    await dialog.getByText('Full close').waitFor();
    await quantity.fill('0.4');
    await dialog.getByText('Partial close').waitFor();
    await screenshot(page, 'trading-desktop-close-position');
    await clickInDialog(page, 'Close Position', 'Close Position');
    await toast(page, 'Position closed successfully');
    await expect.poll(() => cellText(row, POS.settled)).toBe('0.4');

    await bottomTab(page, 'Orders');
    const settle = tradeRows(page).filter({ hasText: 'Partial' }).first();
    await settle.waitFor();
    expect(await cellText(settle, SETTLE.openSide)).toBe('Buy');
    expect(await cellText(settle, SETTLE.closeSide)).toBe('Sell');
    expect(await cellText(settle, SETTLE.volume)).toBe('0.4');
    expect(await cellText(settle, SETTLE.date)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await cellText(settle, SETTLE.profit)).toMatch(/^[+-]?[\d,]+\.\d\d$/);
    expect(await cellText(settle, SETTLE.reason)).toBe('Manual');
    await screenshot(page, 'trading-desktop-settlements');

    await bottomTab(page, 'Order Logs');
    await tradeRows(page).first().waitFor();
    const logs = tradeRows(page);
    await expect
      .poll(async () => (await logs.allTextContents()).filter((t) => /Close/.test(t)).length)
      .toBeGreaterThanOrEqual(1);
    const texts = await logs.allTextContents();
    expect(texts.some((t) => t.includes('BTCUSDTBuyOpen1') && t.includes('Filled'))).toBe(true);
    expect(texts.some((t) => t.includes('BTCUSDTSellClose0.4') && t.includes('Filled'))).toBe(true);
    await screenshot(page, 'trading-desktop-order-logs');
    await bottomTab(page, 'Positions');
  });

  it('refuses a limit price outside the band, names both ranges, snaps to the nearest valid one, and cancels it', async () => {
    await chooseOrderType(page, 'Limit');
    const price = page.getByLabel('Limit Price');
    const place = page.getByRole('button', { name: 'Place Buy Order' });
    // the default, the ask itself, lies between the two ranges: refused, with both named
    const refusal = ticket(page)
      .getByText(
        /^Limit price must be between [\d.]+ and [\d.]+ \(below the market\) or between [\d.]+ and [\d.]+ \(above the market\)$/,
      )
      .last();
    await refusal.waitFor();
    expect(await place.isDisabled()).toBe(true);
    await screenshot(page, 'trading-desktop-limit-refused');
    // one click puts the nearest valid price (a buy rests below the ask) in the field
    const [, belowMax] = /between [\d.]+ and ([\d.]+) \(below/.exec(
      (await refusal.textContent()) ?? '',
    )!;
    const use = ticket(page).getByRole('button', { name: /^Use [\d.]+$/ });
    expect(await use.textContent()).toBe(`Use ${belowMax}`);
    await use.click();
    await refusal.waitFor({ state: 'detached' });
    expect(await price.inputValue()).toBe(belowMax);
    await price.fill('1000');
    await refusal.waitFor();
    await use.click();
    await refusal.waitFor({ state: 'detached' });
    await ticket(page).getByText('GFD', { exact: true }).click();
    expect(await place.isEnabled()).toBe(true);
    const pId = await idOfNewToast(page, /^Pending order successful! Order ID: \d+$/, () =>
      place.click(),
    );

    await bottomTab(page, 'Pending');
    const row = rowWithId(page, pId);
    await row.waitFor();
    expect(await row.textContent()).toContain('GFD');
    await screenshot(page, 'trading-desktop-pending');
    await page.getByRole('button', { name: `Cancel BTCUSDT ${pId}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel Pending Order' });
    await dialog.getByText('Are you sure you want to cancel this pending order?').waitFor();
    await screenshot(page, 'trading-desktop-cancel-pending');
    await clickInDialog(page, 'Cancel Pending Order', 'Cancel Order');
    await toast(page, 'Pending order canceled successfully');
    await row.waitFor({ state: 'detached' });
    await page.getByText('暂无挂单').waitFor();

    await bottomTab(page, 'Order Logs');
    await tradeRows(page).filter({ hasText: 'Canceled' }).first().waitFor();
    await chooseOrderType(page, 'Market');
    await bottomTab(page, 'Positions');
  });

  it('an account switch shows the other account’s positions', async () => {
    await switchAccount(page, 'Demo Professional');
    await page.getByText('暂无持仓').waitFor();
    expect(await rowWithId(page, orderId).count()).toBe(0);
    await chooseSide(page, 'Sell');
    await page.getByLabel('Quantity').fill('0.5');
    const sellId = await placeOrder(page, 'Sell');
    const sellRow = rowWithId(page, sellId);
    await sellRow.waitFor();
    expect(await cellText(sellRow, POS.side)).toBe('Sell');
    expect(await tradeRows(page).count()).toBe(1);
    await screenshot(page, 'trading-desktop-account-professional');

    await switchAccount(page, 'Demo Standard');
    await rowWithId(page, orderId).waitFor();
    expect(await rowWithId(page, sellId).count()).toBe(0);
    await screenshot(page, 'trading-desktop-account-standard');
  });

  it('a take-profit hit by the live feed closes the position on screen', async () => {
    await switchAccount(page, 'Demo VIP');
    await page.getByText('暂无持仓').waitFor();
    await moveMarket(page, 50_000, 50_000.5);

    await chooseSide(page, 'Buy');
    await page.getByLabel('Quantity').fill('0.1');
    await ticket(page).getByRole('checkbox', { name: 'Take Profit' }).check();
    await page.getByLabel('TP price').fill('50100.0');
    const id = await placeOrder(page, 'Buy');
    const row = rowWithId(page, id);
    await row.waitFor();
    expect(await cellText(row, POS.open)).toBe('50000.5');
    expect(await cellText(row, POS.tp)).toBe('50100.0');
    await markDocument(page);
    await screenshot(page, 'trading-desktop-tp-armed');

    // one tick short of the take-profit the position stays open
    await moveMarket(page, 50_099.9, 50_100.4);
    await expect.poll(async () => Number(await cellText(row, POS.pnl)), LIVE).toBe(9.94);
    // the feed reaches it: the position leaves the table without a reload
    await setQuote(page.request, 'BTCUSDT', 50_100, 50_100.5);
    await row.waitFor({ state: 'detached' });
    await page.getByText('暂无持仓').waitFor();
    await expectNotReloaded(page);
    await screenshot(page, 'trading-desktop-tp-hit');

    await bottomTab(page, 'Orders');
    const settle = tradeRows(page).filter({ hasText: 'Full' }).first();
    await settle.waitFor();
    expect(await cellText(settle, SETTLE.closePrice)).toBe('50100.0'); // the bid that reached it
    expect(await cellText(settle, SETTLE.reason)).toBe('Take profit');
    await screenshot(page, 'trading-desktop-tp-settlement');
    await ticket(page).getByRole('checkbox', { name: 'Take Profit' }).uncheck();
    await bottomTab(page, 'Positions');
  });
});

describe('the same trader on a phone', () => {
  let page: Page;
  let orderId = '';

  beforeAll(async () => {
    const context = await newContext(browser, 'phone', baseURL);
    page = await context.newPage();
    await loginThroughPage(page, password);
    await expectPath(page, '/phone');
    await setQuote(page.request, 'BTCUSDT', 50_000, 50_000.5);
  });
  afterAll(async () => {
    await releaseQuote(page.request, 'BTCUSDT');
    await page.context().close();
  });

  async function noHorizontalScroll(): Promise<void> {
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  }

  it('a chart Buy opens the full-screen trading modal; an order from it', async () => {
    await page.getByRole('tab', { name: 'Chart', selected: true }).waitFor();
    await page.getByRole('button', { name: 'Buy BTCUSDT' }).click();
    const modal = page.getByRole('dialog', { name: 'BTCUSDT Paper Trading' });
    await modal.waitFor();
    // full screen once its opening animation is over
    await fullScreenModalOpen(page);
    const frame = page.locator('.fullscreen-modal .ant-modal-container').last();
    const viewport = page.viewportSize();
    expect((await frame.boundingBox())?.height).toBeGreaterThanOrEqual(viewport?.height ?? 0);
    await expect
      .poll(() => modal.getByRole('radio', { name: 'Buy' }).getAttribute('aria-checked'))
      .toBe('true');
    const place = modal.getByRole('button', { name: 'Place Buy Order' });
    await expect.poll(() => place.isEnabled(), { timeout: 20_000 }).toBe(true);
    await screenshot(page, 'trading-phone-modal');
    orderId = await idOfNewToast(page, /^Order successful! Order ID: \d+$/, () => place.click());
    await modal.getByRole('button', { name: 'Close' }).click();
    await modal.waitFor({ state: 'hidden' });
    await noHorizontalScroll();
  });

  it('positions: no Edit/Close columns; a double-click opens the Edit/Close menu', async () => {
    await page.getByRole('tab', { name: 'Positions' }).click();
    await page.getByText('Double-click row to operate').waitFor();
    const row = rowWithId(page, orderId);
    await row.waitFor();
    expect(await page.getByRole('columnheader', { name: 'Edit' }).count()).toBe(0);
    expect(await page.getByRole('columnheader', { name: 'Close' }).count()).toBe(0);
    // a readable card, not clipped columns: instrument, side, prices and P&L on screen
    expect(await page.getByRole('columnheader').count()).toBe(0);
    expect(await row.getByRole('cell').count()).toBe(1);
    const viewport = page.viewportSize()!;
    for (const part of [
      row.getByText('BTCUSDT', { exact: true }),
      row.getByText('Buy', { exact: true }),
      row.getByTitle('Open Price → Market Price'),
      row.getByTitle('Floating P&L'),
    ]) {
      const box = await part.boundingBox();
      expect(box, (await part.textContent()) ?? '').not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
    }
    expect(await row.getByTitle('Floating P&L').textContent()).toMatch(/^[+-]?[\d,]+\.\d\d$/);
    await noHorizontalScroll();
    await screenshot(page, 'trading-phone-positions');
    await row.dblclick();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'Edit' }).waitFor();
    await menu.getByRole('menuitem', { name: 'Close' }).waitFor();
    // touch targets of at least 44 px once the menu has opened
    const item = menu.getByRole('menuitem', { name: 'Edit' });
    await expect
      .poll(async () => (await item.boundingBox())?.height ?? 0)
      .toBeGreaterThanOrEqual(44);
    await screenshot(page, 'trading-phone-row-menu');
  });

  it('edits TP in the full-screen Edit Order modal', async () => {
    await page.getByRole('menu').getByRole('menuitem', { name: 'Edit' }).click();
    await page.getByRole('menu').waitFor({ state: 'hidden' });
    const modal = page.getByRole('dialog', { name: 'Edit Order' });
    await modal.waitFor();
    await fullScreenModalOpen(page);
    await modal.getByRole('checkbox', { name: 'TP' }).check();
    const tp = midOfRange((await modal.getByText(/^TP range:/).textContent()) ?? '');
    await modal.getByLabel('TP price').fill(tp);
    await screenshot(page, 'trading-phone-edit-order');
    await modal.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Take Profit / Stop Loss updated successfully');
    await modal.waitFor({ state: 'hidden' });
    await expect
      .poll(async () => (await rowWithId(page, orderId).textContent()) ?? '')
      .toContain(tp);
  });

  it('closes the position from the row menu; the settlement and logs show it', async () => {
    await rowWithId(page, orderId).dblclick();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Close' }).click();
    await page.getByRole('menu').waitFor({ state: 'hidden' });
    const dialog = page.getByRole('dialog', { name: 'Close Position' });
    expect(await dialog.getByLabel('Close quantity').inputValue()).toBe('1.00');
    await screenshot(page, 'trading-phone-close-position');
    await clickInDialog(page, 'Close Position', 'Close Position');
    await toast(page, 'Position closed successfully');
    // the toast sits above the bottom bar: it covers neither the tabs nor the first rows
    const notice = page
      .locator('.ant-message-notice')
      .filter({ hasText: 'Position closed successfully' });
    const toastBox = await settledBox(notice);
    const tabs = await settledBox(page.getByRole('tablist').first());
    const bottomBar = await settledBox(page.getByRole('navigation', { name: 'Main navigation' }));
    expect(toastBox.y, 'toast under the tabs and the first rows').toBeGreaterThan(
      tabs.y + tabs.height + 200,
    );
    expect(toastBox.y + toastBox.height, 'toast above the bottom bar').toBeLessThanOrEqual(
      bottomBar.y,
    );
    await screenshot(page, 'trading-phone-toast');
    await notice.waitFor({ state: 'detached', timeout: 10_000 });
    await rowWithId(page, orderId).waitFor({ state: 'detached' });

    await page.getByRole('tab', { name: 'Orders' }).click();
    await tradeRows(page).filter({ hasText: 'Full' }).first().waitFor();
    await screenshot(page, 'trading-phone-settlements');
    await page.getByRole('tab', { name: 'Order Logs' }).click();
    await tradeRows(page).filter({ hasText: 'Close' }).first().waitFor();
    await noHorizontalScroll();
    await screenshot(page, 'trading-phone-order-logs');
  });

  it('in the dark theme', async () => {
    const bar = page.getByRole('navigation', { name: 'Main navigation' });
    await bar.getByRole('button', { name: 'My' }).click();
    await page.getByText('Dark', { exact: true }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await bar.getByRole('button', { name: 'Trading' }).click();
    await page.getByRole('tab', { name: 'Chart', selected: true }).waitFor();
    await page.getByRole('button', { name: 'Sell BTCUSDT' }).click();
    const modal = page.getByRole('dialog', { name: 'BTCUSDT Paper Trading' });
    await modal.waitFor();
    await fullScreenModalOpen(page);
    await expect
      .poll(() => modal.getByRole('radio', { name: 'Sell' }).getAttribute('aria-checked'))
      .toBe('true');
    await modal.getByLabel('Quantity').fill('0.2');
    await screenshot(page, 'trading-phone-modal-dark');
    const id = await placeOrder(page, 'Sell', { where: modal });
    await modal.getByRole('button', { name: 'Close' }).click();
    await modal.waitFor({ state: 'hidden' });
    await page.getByRole('tab', { name: 'Positions' }).click();
    await rowWithId(page, id).waitFor();
    await page.getByText('Double-click row to operate').waitFor();
    await screenshot(page, 'trading-phone-positions-dark');
  });
});
