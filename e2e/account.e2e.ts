import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectPath, loginThroughPage } from './support/auth.ts';
import { launchBrowser, newContext, screenshot } from './support/browser.ts';
import { releaseQuote } from './support/market.ts';
import {
  LIVE,
  clickInDialog,
  moveMarket,
  placeOrder,
  setTheme,
  ticket,
  toast,
} from './support/trading.ts';

/*
 * The account bar: balance, equity, used and free margin, margin level and floating P&L of
 * the current account, live with prices (pinned with the test-only feed control) and after a
 * close; the margin-level warning below the configured level (100 %, the default); on a
 * desktop in the bottom panel's header, on a phone in the My tab and above the positions.
 * The journey trades on the demo user's VIP account (1,000,000 USD) and closes what it
 * opens, so the account has no position afterwards, as the trading journey expects.
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

const SYMBOL = 'BTCUSDT';

/** The account bar's region (one per page: the desktop header, or the phone's card/strip). */
function accountRegion(page: Page): Locator {
  return page.getByRole('region', { name: 'Account summary' }).first();
}

/** The text shown under a figure's label. */
async function figureText(page: Page, label: string): Promise<string> {
  const value = accountRegion(page)
    .locator('.account-figure')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd');
  return ((await value.textContent()) ?? '').trim();
}

/** A figure as a number ('1,000,099.50' → 1000099.5; '—' → NaN). */
async function figure(page: Page, label: string): Promise<number> {
  return Number((await figureText(page, label)).replace(/[,%+]/g, ''));
}

async function expectFigure(page: Page, label: string, value: number): Promise<void> {
  await expect.poll(() => figure(page, label), LIVE).toBeCloseTo(value, 2);
}

/** Waits until no toast covers the page (before a screenshot). */
async function noToasts(page: Page): Promise<void> {
  await expect.poll(() => page.locator('.ant-message-notice').count(), LIVE).toBe(0);
}

async function switchAccount(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: /^Account:/ }).click();
  await page.getByRole('menuitem', { name: 'Trading Accounts' }).hover();
  await page.getByRole('menuitem', { name: new RegExp(name) }).click();
  await toast(page, 'Trading account switched');
  await page.getByRole('button', { name: `Account: ${name}` }).waitFor();
}

/** Places a market buy of `volume` from the ticket; answers the position's id. */
async function buy(page: Page, volume: string): Promise<string> {
  await ticket(page).getByRole('radio', { name: 'Buy' }).click();
  await page.getByLabel('Quantity').fill(volume);
  return placeOrder(page, 'Buy');
}

/** Closes the whole position from its row's Close button. */
async function closeWhole(page: Page, orderId: string): Promise<void> {
  await page.getByRole('button', { name: `Close ${SYMBOL} ${orderId}` }).click();
  const dialog = await clickInDialog(page, 'Close Position', 'Close Position');
  await toast(page, 'Position closed successfully');
  await dialog.waitFor({ state: 'hidden' });
}

/** The warning of the desktop bar (a pill naming the level; the full text is its name). */
function barWarning(page: Page): Locator {
  return accountRegion(page).getByRole('alert');
}

describe('the account bar', () => {
  let page: Page;
  /** Positions this journey opened and has not closed yet (closed in afterAll if a step failed). */
  const open = new Set<string>();

  beforeAll(async () => {
    const context = await newContext(browser, 'desktop', baseURL);
    page = await context.newPage();
    await loginThroughPage(page, password);
    await expectPath(page, '/desktop');
    await switchAccount(page, 'Demo VIP');
  });

  afterAll(async () => {
    // a failed step leaves no position behind for the other journeys
    if (open.size > 0) {
      const trader = await page.evaluate(() => localStorage.getItem('currentTrader'));
      const { uuid, token } = JSON.parse(trader ?? '{}') as { uuid?: string; token?: string };
      for (const orderId of open) {
        await page.request.post('/trading/order/close', {
          data: { uuid, token, orderId, volume: 100, channel: 1, device: 1, closeTypeYT: 0 },
        });
      }
    }
    await releaseQuote(page.request, SYMBOL);
    await page.context().close();
  });

  it('equity moves with prices and, after a close, the profit is in the balance', async () => {
    await moveMarket(page, 50_000, 50_000.5);
    // the account holds no position: equity is the balance, no margin level
    await expect.poll(() => figureText(page, 'Margin Level'), LIVE).toBe('—');
    const balance = await figure(page, 'Balance');
    expect(await figure(page, 'Equity')).toBe(balance);
    expect(await figure(page, 'Floating P&L')).toBe(0);
    expect(await figure(page, 'Used Margin')).toBe(0);

    const id = await buy(page, '1');
    open.add(id);
    // 1 lot at the ask 50,000.5: margin 5,000.05; valued at the bid 50,000: −0.50
    await expectFigure(page, 'Used Margin', 5_000.05);
    await expectFigure(page, 'Floating P&L', -0.5);
    await expectFigure(page, 'Equity', balance - 0.5);
    await expectFigure(page, 'Free Margin', balance - 0.5 - 5_000.05);
    await expectFigure(page, 'Margin Level', ((balance - 0.5) / 5_000.05) * 100);

    // the price rises 100: equity follows without a reload
    await moveMarket(page, 50_100, 50_100.5);
    await expectFigure(page, 'Floating P&L', 99.5);
    await expectFigure(page, 'Equity', balance + 99.5);
    await expectFigure(page, 'Free Margin', balance + 99.5 - 5_000.05);
    expect(await figure(page, 'Balance')).toBe(balance);
    await noToasts(page);
    await screenshot(page, 'account-desktop-1440');
    await setTheme(page, 'dark');
    await screenshot(page, 'account-desktop-1440-dark');
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'account-desktop-1024-dark');
    await setTheme(page, 'light');
    await screenshot(page, 'account-desktop-1024');
    await page.setViewportSize({ width: 1440, height: 900 });

    // closing realizes the profit: the balance takes it, the margin is free again
    await closeWhole(page, id);
    open.delete(id);
    await expectFigure(page, 'Balance', balance + 99.5);
    await expectFigure(page, 'Used Margin', 0);
    await expect.poll(() => figureText(page, 'Margin Level'), LIVE).toBe('—');
    expect(await figure(page, 'Floating P&L')).toBe(0);
    expect(await figure(page, 'Equity')).toBe(balance + 99.5);
    // and the equity no longer moves with the price
    await moveMarket(page, 50_300, 50_300.5);
    await moveMarket(page, 50_100, 50_100.5);
    expect(await figure(page, 'Equity')).toBe(balance + 99.5);
  });

  it('warns when the margin level drops below 100 %, and stops when it recovers', async () => {
    await moveMarket(page, 100_000, 100_000.5);
    const free = await figure(page, 'Free Margin');
    // lots taking about 95 % of the free margin (10 % of the ask a lot), at most 100
    const volume = Math.min(100, Math.floor((free * 0.95) / 10_000.05));
    const id = await buy(page, String(volume));
    open.add(id);
    await expectFigure(page, 'Used Margin', Math.round(volume * 10_000.05 * 100) / 100);
    await expect.poll(() => figure(page, 'Margin Level'), LIVE).toBeGreaterThan(100);
    expect(await barWarning(page).count()).toBe(0);

    // equity must fall below the used margin: the bid drops twice what separates them
    const equity = await figure(page, 'Equity');
    const used = await figure(page, 'Used Margin');
    const drop = Math.ceil(((equity - used) / volume) * 2);
    await moveMarket(page, 100_000 - drop, 100_000.5 - drop);
    await expect.poll(() => figure(page, 'Margin Level'), LIVE).toBeLessThan(100);
    await barWarning(page).waitFor(LIVE);
    expect(await barWarning(page).textContent()).toContain('Below 100%');
    expect(await barWarning(page).getAttribute('aria-label')).toMatch(
      /^Margin level [\d,.]+% is below 100%\. Close or reduce positions to free margin\.$/,
    );
    expect(await figure(page, 'Free Margin')).toBeLessThan(0);
    await noToasts(page);
    await screenshot(page, 'account-desktop-warning');
    await setTheme(page, 'dark');
    await screenshot(page, 'account-desktop-warning-dark');
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'account-desktop-1024-warning-dark');
    await page.setViewportSize({ width: 1440, height: 900 });
    await setTheme(page, 'light');

    // the same account on a phone: the My tab and the top of the positions
    const phone = await (await newContext(browser, 'phone', baseURL)).newPage();
    try {
      await loginThroughPage(phone, password);
      await expectPath(phone, '/phone');
      const nav = phone.getByRole('navigation', { name: 'Main navigation' });
      await nav.getByRole('button', { name: 'My' }).click();
      await phone.getByRole('button', { name: /Demo VIP/ }).click();
      await toast(phone, 'Trading account switched');
      const card = phone.getByRole('region', { name: 'Account summary' });
      await card.getByRole('heading', { name: 'Account funds' }).waitFor();
      await expect.poll(() => figure(phone, 'Used Margin'), LIVE).toBeCloseTo(used, 2);
      await card.getByRole('alert').waitFor(LIVE);
      expect(await card.getByRole('alert').textContent()).toMatch(/is below 100%/);
      const overflow = await phone.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      // the funds card leads the My tab
      const toTop = () => phone.locator('.my-view').evaluate((el) => el.scrollTo(0, 0));
      await noToasts(phone);
      await toTop();
      await screenshot(phone, 'account-phone-my');
      await phone.getByText('Dark', { exact: true }).click();
      await phone.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      await toTop();
      await screenshot(phone, 'account-phone-my-dark');

      await nav.getByRole('button', { name: 'Trading' }).click();
      await phone.getByRole('tab', { name: 'Positions' }).click();
      const strip = phone.getByRole('region', { name: 'Account summary' });
      await strip.getByRole('alert').waitFor(LIVE);
      await phone.locator('.trade-totals').waitFor(LIVE);
      expect(await phone.locator('.trade-totals').textContent()).toContain(`Buy ${volume}`);
      await screenshot(phone, 'account-phone-positions-dark');
      await nav.getByRole('button', { name: 'My' }).click();
      await phone.getByText('Light', { exact: true }).click();
      await phone.waitForFunction(() => document.documentElement.dataset.theme === 'light');
      await nav.getByRole('button', { name: 'Trading' }).click();
      await phone.getByRole('tab', { name: 'Positions' }).click();
      await phone.locator('.trade-totals').waitFor(LIVE);
      await screenshot(phone, 'account-phone-positions');
    } finally {
      await phone.context().close();
    }

    // the price comes back: the warning goes; the position is closed at that price
    await moveMarket(page, 100_000, 100_000.5);
    await expect.poll(() => barWarning(page).count(), LIVE).toBe(0);
    await closeWhole(page, id);
    open.delete(id);
    await expect.poll(() => figureText(page, 'Margin Level'), LIVE).toBe('—');
  });
});
