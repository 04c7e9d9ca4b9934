import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { setQuote } from './market.ts';
import { idOfNewToast } from './toasts.ts';
import { animationsDone } from './wait.ts';

/*
 * What the trading journeys (trading, chart-trades) share: the order ticket, pinning the
 * quote until the ticket shows it, placing an order and reading its id from its toast,
 * the trade tables' rows, toasts and the theme switch.
 */

/**
 * Clicks `button` of the dialog titled `title` once the dialog has opened: its zoom has ended,
 * so the button stays where it is pressed (pressed while it still grows, it may move away
 * between the press and the release, and the click goes to what is under the release).
 * Answers the dialog.
 */
export async function clickInDialog(page: Page, title: string, button: string): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor();
  await animationsDone(dialog);
  await dialog.getByRole('button', { name: button }).click();
  return dialog;
}

/** How long a price pinned on the server may take to reach the page. */
export const LIVE = { timeout: 15_000 };

/** The order ticket of an instrument (the desktop side panel's or the phone's modal's). */
export function ticket(page: Page, symbol = 'BTCUSDT'): Locator {
  return page.getByRole('group', { name: `${symbol} Order` }).first();
}

/**
 * Pins the quote of `symbol` with the test-only feed control and waits until `where` (the
 * ticket by default) shows it: it came over the live feed.
 */
export async function moveMarket(
  page: Page,
  bid: number,
  ask: number,
  where: Locator = ticket(page),
  symbol = 'BTCUSDT',
): Promise<void> {
  await setQuote(page.request, symbol, bid, ask);
  const shows = async (side: 'Buy' | 'Sell', price: number) =>
    ((await where.getByRole('radio', { name: side }).textContent()) ?? '').includes(
      price.toFixed(1),
    );
  await expect
    .poll(async () => (await shows('Sell', bid)) && (await shows('Buy', ask)), LIVE)
    .toBe(true);
}

const PLACED = {
  market: /^Order successful! Order ID: \d+$/,
  pending: /^Pending order successful! Order ID: \d+$/,
} as const;

/**
 * Places the order the ticket in `where` holds with its Place Buy/Sell Order button, once
 * the button is enabled; answers the id of the success toast (a market order's position id,
 * or the pending order's id).
 */
export async function placeOrder(
  page: Page,
  side: 'Buy' | 'Sell',
  { where = page, kind = 'market', timeout = LIVE.timeout }: PlaceOptions = {},
): Promise<string> {
  const place = where.getByRole('button', { name: `Place ${side} Order` });
  await expect.poll(() => place.isEnabled(), { timeout }).toBe(true);
  return idOfNewToast(page, PLACED[kind], () => place.click());
}

export type PlaceOptions = {
  /** Where the ticket is: the page (desktop side panel) or the phone's trading modal. */
  where?: Page | Locator;
  kind?: keyof typeof PLACED;
  /** How long the button may take to become enabled. */
  timeout?: number;
};

/** Waits for a toast with this text and returns its text. */
export async function toast(page: Page, text: string | RegExp): Promise<string> {
  const message = page.locator('.ant-message-notice').filter({ hasText: text }).first();
  await message.waitFor({ timeout: 15_000 });
  return ((await message.textContent()) ?? '').trim();
}

/** The data rows of the trade table on screen (the sticky header is a table of its own). */
export function tradeRows(page: Page): Locator {
  return page.locator('.trade-table .ant-table-tbody tr.ant-table-row');
}

/**
 * The data row whose cells include `id` (an order id or pending id): its own cell on a
 * desktop, the id on a phone's row card.
 */
export function rowWithId(page: Page, id: string): Locator {
  const cell = page.getByRole('cell', { name: id, exact: true });
  const cardId = page.locator('.trade-card-id').getByText(id, { exact: true });
  return tradeRows(page).filter({ has: cell.or(cardId) });
}

/** Switches the theme with the toolbar's button and waits until the page has it. */
export async function setTheme(page: Page, mode: 'dark' | 'light'): Promise<void> {
  await page.getByRole('button', { name: `Switch to ${mode} theme` }).click();
  await page.waitForFunction((m) => document.documentElement.dataset.theme === m, mode);
}

/**
 * Closes the current account's positions and cancels its pending orders on `symbol`. The
 * journeys share the demo user, and an order another journey left open puts its lines on the
 * chart too: the price scale takes every line in, so a leftover TP far away sits at the same
 * edge of the pane as the one a journey is about to drag.
 */
export async function clearTrades(page: Page, symbol: string): Promise<void> {
  const trader = await page.evaluate(() => localStorage.getItem('currentTrader'));
  const { uuid, token } = JSON.parse(trader ?? '{}') as { uuid?: string; token?: string };
  if (!uuid || !token) throw new Error('No current trading account');
  const query = `uuid=${encodeURIComponent(uuid)}&token=${encodeURIComponent(token)}`;
  const positions = (await (await page.request.get(`/trading/order/position?${query}`)).json()) as {
    data?: { orders?: { orderId: string; symbol: string; volume: number; settledVol: number }[] };
  };
  for (const p of positions.data?.orders ?? []) {
    if (p.symbol !== symbol) continue;
    await page.request.post('/trading/order/close', {
      data: {
        uuid,
        token,
        orderId: p.orderId,
        volume: p.volume - p.settledVol,
        channel: 1,
        device: 1,
        closeTypeYT: 0,
      },
    });
  }
  const pendings = (await (await page.request.get(`/trading/order/pending?${query}`)).json()) as {
    data?: { pendings?: { pId: string; symbol: string }[] };
  };
  for (const p of pendings.data?.pendings ?? []) {
    if (p.symbol !== symbol) continue;
    await page.request.post('/trading/order/pending/del', { data: { uuid, token, pId: p.pId } });
  }
}
