import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectPath, loginThroughPage } from './support/auth.ts';
import { launchBrowser, newContext, screenshot } from './support/browser.ts';
import { sessionApi } from './support/chart.ts';
import { releaseQuote, setQuote } from './support/market.ts';
import { idOfNewToast } from './support/toasts.ts';
import { LIVE, clearTrades, moveMarket, setTheme, ticket } from './support/trading.ts';

/*
 * The Notifications panel against the started product: a limit order the (pinned) market
 * reaches fills on the server, its notification arrives over the user's live channel and
 * raises the unread count on the Notifications button; opening the panel shows it and
 * clears the count. A fill while the user is logged out shows after the next login.
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

const notificationsButton = (page: Page) =>
  page
    .getByRole('navigation', { name: 'Side panel buttons' })
    .getByRole('button', { name: /^Notifications/ });

/** The accessible name of the Notifications button: "Notifications" and its unread count. */
async function buttonName(page: Page): Promise<string> {
  return (await notificationsButton(page).textContent()) ?? '';
}

/** Pins BTCUSDT's quote next to where the page shows it now (a jump would be refused). */
async function pinNearMarket(page: Page): Promise<void> {
  const buy = ticket(page).getByRole('radio', { name: 'Buy' });
  await expect.poll(async () => /\d/.test((await buy.textContent()) ?? ''), LIVE).toBe(true);
  const ask = Number(/([\d.]+)/.exec((await buy.textContent()) ?? '')?.[1]);
  const bid = Math.round(ask);
  await moveMarket(page, bid, bid + 0.5);
}

/** Places a buy limit order at the nearest valid price below the ask; answers its id and price. */
async function placeBuyLimit(page: Page): Promise<{ pId: string; price: number }> {
  await ticket(page).getByRole('radio', { name: 'Buy' }).click();
  await ticket(page).getByText('Limit', { exact: true }).click();
  const use = ticket(page).getByRole('button', { name: /^Use [\d.]+$/ });
  await use.waitFor();
  const price = Number(((await use.textContent()) ?? '').replace('Use ', ''));
  await use.click();
  const place = page.getByRole('button', { name: 'Place Buy Order' });
  await expect.poll(() => place.isEnabled(), LIVE).toBe(true);
  const pId = await idOfNewToast(page, /^Pending order successful! Order ID: \d+$/, () =>
    place.click(),
  );
  return { pId, price };
}

describe('notifications on a desktop', () => {
  let page: Page;

  beforeAll(async () => {
    const context = await newContext(browser, 'desktop', baseURL);
    page = await context.newPage();
    await loginThroughPage(page, password);
    await expectPath(page, '/desktop');
    await clearTrades(page, 'BTCUSDT');
    // what earlier journeys left for the demo user is read: the count starts at zero
    expect((await sessionApi(page, 'POST', '/api/notifications/read', { all: true })).status).toBe(
      200,
    );
  });
  afterAll(async () => {
    await clearTrades(page, 'BTCUSDT');
    await releaseQuote(page.request, 'BTCUSDT');
    await page.context().close();
  });

  it('a limit order that fills raises the unread count; opening the panel shows it and clears the count', async () => {
    await page.getByRole('button', { name: 'Trading', pressed: true }).waitFor();
    await pinNearMarket(page);
    await expect.poll(() => buttonName(page), LIVE).not.toMatch(/unread/);
    const { pId, price } = await placeBuyLimit(page);

    // the market comes down to the order's price: the engine fills it
    await setQuote(page.request, 'BTCUSDT', price - 1, price - 0.5);
    await expect.poll(() => buttonName(page), LIVE).toMatch(/1 unread/);
    await screenshot(page, 'notifications-desktop-unread');

    await notificationsButton(page).click();
    const panel = page.getByRole('complementary', { name: 'Notifications' });
    const item = panel
      .getByRole('list', { name: 'Notifications list' })
      .getByRole('listitem')
      .filter({ hasText: 'Pending order filled' })
      .first();
    await item.waitFor();
    expect(await item.textContent()).toContain(`BTCUSDT filled at ${price - 0.5}`);
    expect(await item.textContent()).toContain('Unread');
    // opened: read on the server, the count on the button clears
    await expect.poll(() => buttonName(page), LIVE).not.toMatch(/unread/);
    const listed = await sessionApi(page, 'GET', '/api/notifications?limit=5');
    const body = listed.body as { unread: number; items: { ref: string; read: boolean }[] };
    expect(body.unread).toBe(0);
    expect(body.items.find((n) => n.ref === `pending:${pId}:filled`)?.read).toBe(true);

    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: width === 1440 ? 900 : 768 });
      await screenshot(page, `notifications-desktop-${width}-light`);
      await setTheme(page, 'dark');
      await screenshot(page, `notifications-desktop-${width}-dark`);
      await setTheme(page, 'light');
    }
    await panel.getByRole('button', { name: 'Notification settings' }).click();
    await panel.getByRole('switch', { name: 'Browser notifications' }).waitFor();
    await screenshot(page, 'notifications-desktop-1024-settings');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole('button', { name: 'Trading', exact: true }).click();
  });

  it('a fill while logged out shows after the next login', async () => {
    await ticket(page).waitFor();
    await pinNearMarket(page);
    const { pId, price } = await placeBuyLimit(page);
    await page.getByRole('button', { name: /^Account:/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expectPath(page, '/login');

    // nobody is looking: the market reaches the order and the engine fills it
    await setQuote(page.request, 'BTCUSDT', price - 1, price - 0.5);

    await loginThroughPage(page, password);
    await expectPath(page, '/desktop');
    await expect.poll(() => buttonName(page), LIVE).toMatch(/1 unread/);
    await notificationsButton(page).click();
    const panel = page.getByRole('complementary', { name: 'Notifications' });
    const first = panel.getByRole('list', { name: 'Notifications list' }).getByRole('listitem');
    await first.first().waitFor();
    expect(await first.first().textContent()).toContain('Pending order filled');
    await expect.poll(() => buttonName(page), LIVE).not.toMatch(/unread/);
    const listed = await sessionApi(page, 'GET', '/api/notifications?limit=1');
    expect((listed.body as { items: { ref: string }[] }).items[0]?.ref).toBe(
      `pending:${pId}:filled`,
    );
    await page.getByRole('button', { name: 'Trading', exact: true }).click();
  });
});

describe('notifications on a phone', () => {
  let page: Page;

  beforeAll(async () => {
    const context = await newContext(browser, 'phone', baseURL);
    page = await context.newPage();
    await loginThroughPage(page, password);
    await expectPath(page, '/phone');
  });
  afterAll(async () => {
    await page.context().close();
  });

  it('My lists the notifications and their settings', async () => {
    await page.getByRole('button', { name: /^My/ }).click();
    const section = page.getByRole('region', { name: 'Notifications' });
    await section.getByRole('list', { name: 'Notifications list' }).waitFor();
    await screenshot(page, 'notifications-phone-390-light');
    const theme = page.getByRole('region', { name: 'Theme' });
    await theme.getByText('Dark', { exact: true }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await screenshot(page, 'notifications-phone-390-dark');
    await theme.getByText('Light', { exact: true }).click();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
