import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectPath, loginThroughPage } from './support/auth.ts';
import { launchBrowser, newContext, screenshot } from './support/browser.ts';
import { dragUntilAsked, sessionApi } from './support/chart.ts';
import { askedPrice, placeOf, yOf } from './support/chartLines.ts';
import { LIVE, clickInDialog, setTheme, ticket, toast, tradeRows } from './support/trading.ts';

/*
 * Bar replay on the first chart: Replay on the toolbar, start from a clicked bar (or a hundred
 * bars back through the date field), Esc before the start cancels; step,
 * buy on the replay account, watch the position's P&L move as bars replay, run a saved
 * strategy in replay and see its markers, exit to the live chart with nothing of the replay
 * on the real account. The chart never draws a bar after the replay's cursor: nor do its
 * drawings (cut at the cursor or hidden) and indicators. With Sync charts the grid's other
 * chart shows only the bars closed at the replay's time. The header's bid/ask is the
 * replay's price, tagged Replay.
 */

const baseURL = inject('baseURL');
const password = inject('demoPassword');
const STRATEGY = 'Replay up bars';
const PHONE_STRATEGY = 'Replay up bars phone';
let browser: Browser;

/** Opens at the close of each bar that closed above the one before; closes a bar later. */
const UP_BARS = `
def main(data_array):
    records = []
    for i in range(1, len(data_array)):
        if data_array[i][6] > data_array[i - 1][6]:
            record = {'open_date': data_array[i][0], 'open_price': data_array[i][6], 'lots': 1,
                      'status': 'NOT', 'close_date': None, 'close_price': None}
            if i + 1 < len(data_array):
                record.update(status='YES', close_date=data_array[i + 1][0],
                              close_price=data_array[i + 1][6])
            records.append(record)
    print('bars', len(data_array))
    print('records', len(records))
    return records
`;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

const chart = (page: Page): Locator => page.locator('section.trading-chart').first();
const canvas = (page: Page): Locator => chart(page).getByTestId('chart-canvas');
const bar = (page: Page): Locator => chart(page).getByRole('region', { name: 'Bar replay' });

async function cursorOf(page: Page): Promise<number> {
  return Number(await bar(page).getByTestId('replay-cursor').getAttribute('data-cursor'));
}

/** Waits until the chart's last drawn bar is the replay's cursor, and returns it. */
async function drawnUpToCursor(page: Page, cursor: number): Promise<void> {
  await canvas(page)
    .and(page.locator(`[data-replay-cursor="${cursor}"][data-newest="${cursor}"]`))
    .waitFor(LIVE);
}

async function realPositions(page: Page): Promise<number> {
  const trader = await page.evaluate(() => localStorage.getItem('currentTrader'));
  const { uuid, token } = JSON.parse(trader ?? '{}') as { uuid?: string; token?: string };
  const res = await page.request.get(
    `/trading/order/position?uuid=${encodeURIComponent(uuid ?? '')}&token=${encodeURIComponent(token ?? '')}`,
  );
  const body = (await res.json()) as { data?: { orders?: unknown[] } };
  return body.data?.orders?.length ?? 0;
}

type Evaluation = {
  bar_time: number;
  wanted: { side: 'buy' | 'sell'; lots: number; open_time: number }[];
  orders: {
    action: 'open' | 'close';
    side: string;
    volume: number;
    price: number | null;
    status: string;
  }[];
  printed: string[];
};

type Session = {
  id: string;
  cursor: number;
  start: number;
  quote: { bid: number; ask: number };
  positions: { id: number; volume: number; open_price: number }[];
  pending: { id: number; price: number }[];
  trades: { volume: number }[];
  evaluations: Evaluation[];
};

/** The newest kept session, as the server has it now. */
async function newestSession(page: Page): Promise<Session> {
  const list = (await (await page.request.get('/api/replays')).json()) as {
    replays: { id: string }[];
  };
  const id = list.replays[0]?.id ?? '';
  return (await (await page.request.get(`/api/replays/${id}`)).json()) as Session;
}

type Bar = { id: number; high: number; low: number };

/**
 * A limit order the bars after `cursor` will fill: a sell just over 0.1 % above the bid (the
 * band's nearest) when a later bar trades up to it, else a buy just under 0.1 % below the ask
 * when a later bar's ask comes down to it; and how many steps until that bar is replayed.
 */
function limitThatFills(
  bars: readonly Bar[],
  session: Session,
): { side: 'Buy' | 'Sell'; price: string; steps: number } {
  const { bid, ask } = session.quote;
  const spread = ask - bid;
  const after = bars.filter((b) => b.id > session.cursor).slice(0, -1); // closed bars only
  // BTCUSDT's tick is 0.1: one tick inside the band's nearest edge
  const sellAt = (Math.ceil(bid * 1.001 * 10) + 1) / 10;
  const buyAt = (Math.floor(ask * 0.999 * 10) - 1) / 10;
  const up = after.findIndex((b) => b.high >= sellAt);
  const down = after.findIndex((b) => b.low + spread <= buyAt);
  if (up < 0 && down < 0) throw new Error('No replayed bar moves 0.1 % from the start');
  return up >= 0 && (down < 0 || up <= down)
    ? { side: 'Sell', price: sellAt.toFixed(1), steps: up + 1 }
    : { side: 'Buy', price: buyAt.toFixed(1), steps: down + 1 };
}

async function step(page: Page, name: 'Step forward' | 'Step back'): Promise<number> {
  const before = await cursorOf(page);
  await bar(page).getByRole('button', { name }).click();
  await bar(page)
    .getByTestId('replay-cursor')
    .and(page.locator(`:not([data-cursor="${before}"])`))
    .waitFor(LIVE);
  const after = await cursorOf(page);
  await drawnUpToCursor(page, after);
  return after;
}

describe('bar replay, desktop', () => {
  let page: Page;

  beforeAll(async () => {
    const context = await newContext(browser, 'desktop', baseURL);
    page = await context.newPage();
    await loginThroughPage(page, password);
    await expectPath(page, '/desktop');
    await canvas(page).and(page.locator('[data-phase=ready]')).waitFor(LIVE);
    await page.request.post('/api/strategies/', {
      data: { name: STRATEGY, code: UP_BARS, create: true },
    });
  });
  afterAll(async () => {
    const list = (await (await page.request.get('/api/replays')).json()) as {
      replays: { id: string }[];
    };
    for (const r of list.replays) await page.request.delete(`/api/replays/${r.id}`);
    await page.request.delete(`/api/strategies/${encodeURIComponent(STRATEGY)}`);
    await page.context().close();
  });

  it('replays a hundred bars back, trades its own account and exits to the live chart', async () => {
    const realBefore = await realPositions(page);
    const liveNewest = Number(await canvas(page).getAttribute('data-newest'));
    await chart(page).getByRole('button', { name: 'Bar replay' }).click();
    await bar(page).getByRole('button', { name: 'Start replay' }).click();
    await bar(page).getByTestId('replay-cursor').waitFor(LIVE);
    const start = await cursorOf(page);
    expect(start).toBeLessThan(liveNewest);
    // the chart stops at the cursor: its last drawn bar is the cursor's
    await drawnUpToCursor(page, start);

    const next = await step(page, 'Step forward');
    expect(next).toBeGreaterThan(start);

    // one place to trade: the trading panel's ticket acts on the replay
    expect(await bar(page).getByRole('button', { name: 'Buy', exact: true }).count()).toBe(0);
    await ticket(page).getByText('Market', { exact: true }).click();
    await ticket(page).getByRole('button', { name: 'Place Buy Order' }).click();
    await toast(page, 'Replay order placed');
    const positions = bar(page).getByRole('table', { name: 'Replay positions' });
    await positions.getByRole('button', { name: /^Close replay position \d+$/ }).waitFor(LIVE);
    const profit = bar(page).getByTestId('replay-profit');
    const seen = new Set<string>([(await profit.textContent()) ?? '']);
    for (let i = 0; i < 5; i++) {
      await step(page, 'Step forward');
      seen.add((await profit.textContent()) ?? '');
    }
    // the position's P&L moves as bars replay
    expect(seen.size).toBeGreaterThan(1);
    await screenshot(page, 'replay-desktop-1440-light');
    await setTheme(page, 'dark');
    await screenshot(page, 'replay-desktop-1440-dark');
    await page.setViewportSize({ width: 1024, height: 768 });
    await drawnUpToCursor(page, await cursorOf(page));
    await screenshot(page, 'replay-desktop-1024-dark');
    await setTheme(page, 'light');
    await screenshot(page, 'replay-desktop-1024-light');
    await page.setViewportSize({ width: 1440, height: 900 });

    // a step back undoes nothing before the cursor: the position stays
    await step(page, 'Step back');
    await positions.getByRole('button', { name: /^Close replay position \d+$/ }).waitFor(LIVE);

    await bar(page).getByRole('button', { name: 'Exit replay' }).click();
    await bar(page).waitFor({ state: 'detached', ...LIVE });
    await canvas(page).and(page.locator('[data-replay-cursor=""]')).waitFor(LIVE);
    expect(Number(await canvas(page).getAttribute('data-newest'))).toBeGreaterThanOrEqual(
      liveNewest,
    );
    // nothing of the replay on the real account
    expect(await realPositions(page)).toBe(realBefore);
  });

  it('trades the replay account through the trading panel: limit order, fill, partial close', async () => {
    const realBefore = await realPositions(page);
    const panel = page.getByRole('complementary', { name: 'Trading' });
    await chart(page).getByRole('button', { name: 'Bar replay' }).click();
    await bar(page).getByRole('button', { name: 'Start replay' }).click();
    await bar(page).getByTestId('replay-cursor').waitFor(LIVE);
    // the panel names the replay's account and trades it
    await panel.getByRole('heading', { name: 'BTCUSDT Replay Trading' }).waitFor(LIVE);
    await panel.getByRole('note', { name: 'Replay account' }).waitFor();
    await page.getByRole('region', { name: 'Replay account' }).waitFor();
    const session = await newestSession(page);
    const klines = (await (
      await page.request.get('/trading/kline/lists?symbol=BTCUSDT&cycel=1m&limit=300')
    ).json()) as { data: { lists: Bar[] } };
    const order = limitThatFills(klines.data.lists, session);

    // the ticket quotes the replay's cursor, not the live market
    const buyPrice = ticket(page).getByRole('radio', { name: 'Buy' });
    const shownAsk = async () => Number(/[\d.]+/.exec((await buyPrice.textContent()) ?? '')?.[0]);
    await expect.poll(shownAsk).toBe(session.quote.ask);
    await ticket(page).getByRole('radio', { name: order.side }).click();
    await ticket(page).getByText('Limit', { exact: true }).click();
    await ticket(page).getByLabel('Limit Price').fill(order.price);
    await screenshot(page, 'replay-trading-ticket-1440-light');
    await ticket(page)
      .getByRole('button', { name: `Place ${order.side} Order` })
      .click();
    await toast(page, 'Replay limit order placed');

    // pending in the Pending Orders table, with its Cancel
    await page.getByRole('tab', { name: 'Pending', exact: true }).click();
    const pendingRow = tradeRows(page).filter({ hasText: order.price });
    await pendingRow.waitFor(LIVE);
    const pendingId = String((await newestSession(page)).pending[0]?.id);
    await page.getByRole('button', { name: `Cancel BTCUSDT ${pendingId}` }).waitFor();

    // step until the bar that trades through it: it fills and leaves the pending table
    for (let i = 0; i < order.steps; i++) await step(page, 'Step forward');
    await pendingRow.waitFor({ state: 'detached', ...LIVE });
    await page.getByRole('tab', { name: 'Positions', exact: true }).click();
    const filled = await newestSession(page);
    expect(filled.positions).toHaveLength(1);
    const positionId = String(filled.positions[0]?.id);
    await page.getByRole('button', { name: `Close BTCUSDT ${positionId}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Close Position' });
    await dialog.getByLabel('Close quantity').fill('0.4');
    await dialog.getByText('Partial close').waitFor();
    await clickInDialog(page, 'Close Position', 'Close Position');
    await toast(page, 'Replay position closed');
    await expect.poll(async () => (await newestSession(page)).positions[0]?.volume).toBe(0.6);
    expect((await newestSession(page)).trades.map((t) => t.volume)).toEqual([0.4]);
    await tradeRows(page).filter({ hasText: '0.6' }).first().waitFor(LIVE);
    await screenshot(page, 'replay-trading-1440-light');
    await setTheme(page, 'dark');
    await screenshot(page, 'replay-trading-1440-dark');
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'replay-trading-1024-dark');
    await setTheme(page, 'light');
    await screenshot(page, 'replay-trading-1024-light');
    await page.setViewportSize({ width: 1440, height: 900 });

    // the session's results in the backtest's results modal
    await bar(page).getByRole('button', { name: 'Results' }).click();
    const results = page.getByRole('dialog', { name: 'Replay Results' });
    await results.getByRole('table', { name: 'Trade Details' }).waitFor(LIVE);
    await results.getByText('Initial capital → final equity').waitFor();
    await screenshot(page, 'replay-results-1440-light');
    const closeResults = async () => {
      await results.getByRole('button', { name: 'Close' }).first().click();
      await results.waitFor({ state: 'detached', ...LIVE });
    };
    await closeResults();
    // the theme switch is under the modal's mask: switch, then open the results again
    await setTheme(page, 'dark');
    await bar(page).getByRole('button', { name: 'Results' }).click();
    await results.getByRole('table', { name: 'Trade Details' }).waitFor(LIVE);
    await screenshot(page, 'replay-results-1440-dark');
    await closeResults();
    await setTheme(page, 'light');

    await bar(page).getByRole('button', { name: 'Exit replay' }).click();
    await bar(page).waitFor({ state: 'detached', ...LIVE });
    // back on the trader's own account: nothing of the replay reached it
    await panel.getByRole('heading', { name: 'BTCUSDT Paper Trading' }).waitFor(LIVE);
    expect(await realPositions(page)).toBe(realBefore);
    await page.getByRole('region', { name: 'Replay account' }).waitFor({ state: 'detached' });

    // the kept session resumes from the Replay button at its cursor
    await chart(page).getByRole('button', { name: 'Bar replay' }).click();
    await bar(page).getByRole('combobox', { name: 'Kept sessions' }).waitFor(LIVE);
    await bar(page).getByRole('button', { name: 'Resume' }).click();
    await bar(page).getByTestId('replay-cursor').waitFor(LIVE);
    expect(await cursorOf(page)).toBe((await newestSession(page)).cursor);
    await drawnUpToCursor(page, await cursorOf(page));
    await panel.getByRole('heading', { name: 'BTCUSDT Replay Trading' }).waitFor(LIVE);
    await bar(page).getByRole('button', { name: 'Exit replay' }).click();
    await bar(page).waitFor({ state: 'detached', ...LIVE });
  }, 300_000); // a walk of many steps and eight screenshots

  it('runs a saved strategy in replay: its markers, and beside the chart what it wants, sent and printed', async () => {
    // a journey before that failed midway may have left its replay open
    if (await bar(page).isVisible()) {
      await bar(page).getByRole('button', { name: 'Exit replay' }).click();
      await bar(page).waitFor({ state: 'detached', ...LIVE });
    }
    await chart(page).getByRole('button', { name: 'Bar replay' }).click();
    await bar(page).getByRole('combobox', { name: 'Strategy' }).click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: STRATEGY })
      .click();
    await bar(page).getByRole('button', { name: 'Start replay' }).click();
    await bar(page).getByTestId('replay-cursor').waitFor(LIVE);
    await bar(page).getByText(`Replay · ${STRATEGY}`).waitFor(LIVE);
    const panel = bar(page).getByRole('region', { name: 'Strategy at the cursor' });
    const toggle = panel.getByRole('button', { name: 'Strategy details' });
    const printed = panel.getByTestId('replay-printed');
    /** The panel shows the evaluation of the bar at the cursor (its time as the bar says it). */
    const showsCursor = async (): Promise<Evaluation> => {
      const cursor = await cursorOf(page);
      // 'Replay at {time}', and ' · Replaying N bars…' while a jump finishes
      const time = ((await bar(page).getByTestId('replay-cursor').textContent()) ?? '')
        .replace(/^Replay at /, '')
        .replace(/ · .*$/, '');
      await toggle.getByText(`${STRATEGY} at ${time}`).waitFor(LIVE);
      const evaluation = (await newestSession(page)).evaluations.find((e) => e.bar_time === cursor);
      if (!evaluation) throw new Error(`No evaluation at ${cursor}`);
      // every line printed at that bar, not only the last
      await expect.poll(() => printed.textContent(), LIVE).toBe(evaluation.printed.join('\n'));
      return evaluation;
    };

    // step until the strategy sends an order (it opens at the close of a bar that closed up)
    let evaluation: Evaluation | null = null;
    for (let i = 0; i < 40; i++) {
      await step(page, 'Step forward');
      evaluation = await showsCursor();
      if (evaluation.orders.length > 0 && evaluation.wanted.length > 0) break;
    }
    if (!evaluation?.orders.length) throw new Error('The strategy sent no order in 40 bars');
    expect(evaluation.printed).toHaveLength(2);
    expect(evaluation.printed[0]).toMatch(/^bars \d+$/);
    // the positions it wants at the cursor
    const wanted = panel.getByRole('list', { name: 'Wanted positions' }).getByRole('listitem');
    await expect.poll(() => wanted.count(), LIVE).toBe(evaluation.wanted.length);
    await wanted
      .first()
      .getByText(/^Buy 1 since /)
      .waitFor();
    // the orders it sent at this bar: side, volume, price, filled
    const orders = panel.getByRole('table', { name: 'Orders sent' }).getByRole('row');
    expect(await orders.count()).toBe(evaluation.orders.length);
    for (const [i, order] of evaluation.orders.entries()) {
      expect(order.status).toBe('filled');
      const cells = await orders.nth(i).getByRole('cell').allTextContents();
      expect(cells).toEqual([
        order.action === 'open' ? 'Open' : 'Close',
        order.side === 'buy' ? 'Buy' : 'Sell',
        String(order.volume),
        (order.price ?? 0).toFixed(1),
        'Filled',
      ]);
    }
    // the strategy's fills are drawn as markers on the replayed bars
    await canvas(page).and(page.locator(':not([data-markers="0"])')).waitFor(LIVE);
    expect(Number(await canvas(page).getAttribute('data-markers'))).toBeGreaterThan(0);
    await screenshot(page, 'replay-strategy-1440-light');
    await setTheme(page, 'dark');
    await screenshot(page, 'replay-strategy-1440-dark');
    await page.setViewportSize({ width: 1024, height: 768 });
    await drawnUpToCursor(page, await cursorOf(page));
    await screenshot(page, 'replay-strategy-1024-dark');
    await setTheme(page, 'light');
    await screenshot(page, 'replay-strategy-1024-light');
    await page.setViewportSize({ width: 1440, height: 900 });

    // a step back shows the evaluation of the bar it lands on
    await step(page, 'Step back');
    await showsCursor();

    // Jump to date: forward ten bars (the strategy runs at each), then back five
    const jump = async (to: number) => {
      const text = await page.evaluate((seconds) => {
        const d = new Date(seconds * 1000);
        const two = (n: number) => String(n).padStart(2, '0');
        return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
      }, to);
      const field = bar(page).getByRole('textbox', { name: 'Jump to date' });
      await field.click();
      await field.fill(text);
      await field.press('Enter');
      await bar(page)
        .getByTestId('replay-cursor')
        .and(page.locator(`[data-cursor="${to}"]`))
        .waitFor(LIVE);
      await drawnUpToCursor(page, to);
      await showsCursor();
    };
    const from = await cursorOf(page);
    await jump(from + 10 * 60);
    const jumped = await newestSession(page);
    expect(jumped.cursor).toBe(from + 10 * 60);
    // evaluated at every skipped bar's close, as stepping would
    expect(
      jumped.evaluations.filter((e) => e.bar_time > from && e.bar_time <= jumped.cursor),
    ).toHaveLength(10);
    await jump(from + 5 * 60);
    expect((await newestSession(page)).cursor).toBe(from + 5 * 60);

    await bar(page).getByRole('button', { name: 'Exit replay' }).click();
    await bar(page).waitFor({ state: 'detached', ...LIVE });
  });

  it('drags a replay pending order on the chart: it moves and fills at its new price', async () => {
    if (await bar(page).isVisible()) {
      await bar(page).getByRole('button', { name: 'Exit replay' }).click();
      await bar(page).waitFor({ state: 'detached', ...LIVE });
    }
    await chart(page).getByRole('button', { name: 'Bar replay' }).click();
    await bar(page).getByRole('button', { name: 'Start replay' }).click();
    await bar(page).getByTestId('replay-cursor').waitFor(LIVE);
    const session = await newestSession(page);
    const klines = (await (
      await page.request.get('/trading/kline/lists?symbol=BTCUSDT&cycel=1m&limit=300')
    ).json()) as { data: { lists: (Bar & { open: number })[] } };
    const { bid, ask } = session.quote;
    const spread = ask - bid;
    const after = klines.data.lists.filter((b) => b.id > session.cursor).slice(0, 60);
    // the side the next bars move furthest to: a buy below the ask or a sell above the bid
    const lowest = Math.min(...after.map((b) => b.low + spread));
    const highest = Math.max(...after.map((b) => b.high));
    const buying = ask * 0.999 - lowest >= highest - bid * 1.001;
    const side = buying ? 'Buy' : 'Sell';
    // placed far from the market, with a second order as the price scale's other reference
    const place = async (price: number) => {
      await ticket(page).getByRole('radio', { name: side }).click();
      await ticket(page).getByText('Limit', { exact: true }).click();
      await ticket(page).getByLabel('Limit Price').fill(price.toFixed(1));
      await ticket(page)
        .getByRole('button', { name: `Place ${side} Order` })
        .click();
      await toast(page, 'Replay limit order placed');
    };
    await place(buying ? ask * 0.99 : bid * 1.01);
    await expect.poll(async () => (await newestSession(page)).pending.length, LIVE).toBe(1);
    await place(buying ? ask * 0.98 : bid * 1.02);
    await expect.poll(async () => (await newestSession(page)).pending.length, LIVE).toBe(2);
    await ticket(page).getByText('Market', { exact: true }).click();
    const [moving, reference] = (await newestSession(page)).pending;
    const lineOf = (id: number) =>
      chart(page).getByRole('group', {
        name: new RegExp(`^Pending order ${id}: ${side} (Limit|Stop) 1 GTC at`),
      });
    const line = lineOf(moving!.id);
    await line.waitFor({ state: 'visible', ...LIVE });
    await lineOf(reference!.id).waitFor({ state: 'visible', ...LIVE });
    // dragged halfway between the band's edge and the furthest the next bars go
    const target = buying ? (ask * 0.999 + lowest) / 2 : (bid * 1.001 + highest) / 2;
    await dragUntilAsked(line, async () => {
      const a = await placeOf(line);
      const b = await placeOf(lineOf(reference!.id));
      const box = await canvas(page).boundingBox();
      if (!box) throw new Error('No chart');
      const x = box.x + box.width * 0.55;
      await page.mouse.move(x, a.y);
      await page.mouse.down();
      await page.mouse.move(x, yOf(target, a, b), { steps: 8 });
      await page.mouse.up();
    });
    const asked = Number(await askedPrice(line));
    await screenshot(page, 'replay-pending-drag-1440-light');
    await line.getByRole('button', { name: 'Confirm' }).click();
    await toast(page, 'Replay pending order moved');
    await expect.poll(() => line.getAttribute('data-price'), LIVE).toBe(String(asked));
    const moved = await newestSession(page);
    expect(moved.pending.find((p) => p.id === moving!.id)?.price).toBe(asked);
    // the other order is cancelled: only the moved one can fill
    await page.request.post(`/api/replays/${moved.id}/orders`, {
      data: { type: 'cancel', pId: reference!.id },
    });

    // it fills at the first replayed bar that reaches its new price, at that price
    const hit = after.findIndex((b) => (buying ? b.low + spread <= asked : b.high >= asked));
    expect(hit, `a bar reaching ${asked}`).toBeGreaterThanOrEqual(0);
    const bar0 = after[hit]!;
    const gap = buying ? bar0.open + spread <= asked : bar0.open >= asked;
    const fillPrice = gap ? (buying ? bar0.open + spread : bar0.open) : asked;
    for (let i = 0; i <= hit; i++) await step(page, 'Step forward');
    const filled = await newestSession(page);
    expect(filled.pending).toEqual([]);
    expect(filled.positions.map((p) => p.id)).toEqual([moving!.id]);
    expect(filled.positions[0]!.open_price).toBeCloseTo(fillPrice, 6);
    await bar(page).getByRole('button', { name: 'Exit replay' }).click();
    await bar(page).waitFor({ state: 'detached', ...LIVE });
  }, 300_000);
});

/** Opens the replay bar (the chart then waits for a click on a bar). */
async function openReplay(page: Page): Promise<void> {
  await chart(page).getByRole('button', { name: 'Bar replay' }).click();
  await bar(page).getByText('Click a bar to start from').waitFor(LIVE);
  await canvas(page).and(page.locator('[data-replay-picking="1"]')).waitFor(LIVE);
}

async function exitReplay(page: Page): Promise<void> {
  await bar(page).getByRole('button', { name: 'Exit replay' }).click();
  await bar(page).waitFor({ state: 'detached', ...LIVE });
  await canvas(page).and(page.locator('[data-replay-cursor=""]')).waitFor(LIVE);
}

async function deleteReplays(page: Page): Promise<void> {
  const list = (await (await page.request.get('/api/replays')).json()) as {
    replays: { id: string }[];
  };
  for (const r of list.replays) await page.request.delete(`/api/replays/${r.id}`);
}

describe('bar replay: where it starts, what it draws, synchronised charts', () => {
  let page: Page;
  const made: number[] = [];

  beforeAll(async () => {
    const context = await newContext(browser, 'desktop', baseURL);
    page = await context.newPage();
    await loginThroughPage(page, password);
    await expectPath(page, '/desktop');
    await canvas(page).and(page.locator('[data-phase=ready]')).waitFor(LIVE);
  });
  afterAll(async () => {
    await deleteReplays(page);
    for (const id of made) await sessionApi(page, 'DELETE', `/api/charts/drawings/${id}`);
    await sessionApi(page, 'PUT', '/api/charts/indicators/0', { indicators: [] });
    await page.context().close();
  });

  it('starts at the bar clicked on the chart; Esc before it cancels', async () => {
    await openReplay(page);
    await page.keyboard.press('Escape');
    await bar(page).waitFor({ state: 'detached', ...LIVE });
    await canvas(page).and(page.locator('[data-replay-picking=""]')).waitFor(LIVE);

    await openReplay(page);
    const box = await canvas(page).boundingBox();
    if (!box) throw new Error('chart canvas has no box');
    const at = { x: box.width * 0.55, y: box.height * 0.4 };
    await canvas(page).hover({ position: at });
    // a line follows the pointer and the bar tells where the replay would start
    const pick = bar(page).getByTestId('replay-pick');
    await pick.getByText(/^Start at /).waitFor(LIVE);
    await canvas(page).and(page.locator(':not([data-replay-pick=""])')).waitFor(LIVE);
    const picked = Number(await canvas(page).getAttribute('data-replay-pick'));
    const pickText = ((await pick.textContent()) ?? '').replace(/^Start at (.*?) · .*$/, '$1');
    await screenshot(page, 'replay-pick-1440-light');
    await canvas(page).click({ position: at });
    await bar(page).getByTestId('replay-cursor').waitFor(LIVE);
    expect(await cursorOf(page)).toBe(picked);
    await bar(page).getByText(`Replay at ${pickText}`).waitFor(LIVE);
    await drawnUpToCursor(page, picked);
    await exitReplay(page);
  });

  it("draws drawings and indicators on the replayed bars only; the ticker shows the replay's price", async () => {
    const newest = Number(await canvas(page).getAttribute('data-newest'));
    const klines = (await (
      await page.request.get('/trading/kline/lists?symbol=BTCUSDT&cycel=1m&limit=301')
    ).json()) as { data: { lists: { close: number }[] } };
    // a trend line over the closes of 300 bars back and of the newest bar (in the chart's range)
    const [from, to] = [klines.data.lists[0]!.close, klines.data.lists.at(-1)!.close];
    const price = to;
    const shape = (kind: string, points: { time: number; price: number }[]) => ({
      symbol: 'BTCUSDT',
      kind,
      points,
    });
    for (const body of [
      // from 300 bars back to the newest bar: cut at the cursor
      shape('trend', [
        { time: newest - 300 * 60, price: from },
        { time: newest, price: to },
      ]),
      // drawn at the newest bar: hidden in the replay
      shape('horizontal', [{ time: newest, price }]),
      shape('vertical', [{ time: newest - 10 * 60, price }]),
    ]) {
      const answer = await sessionApi(page, 'POST', '/api/charts/drawings', body);
      expect(answer.status).toBe(201);
      made.push((answer.body as { id: number }).id);
    }
    const sma = { id: 'replay-sma', kind: 'sma', params: { period: 20 }, visible: true };
    await sessionApi(page, 'PUT', '/api/charts/indicators/0', { indicators: [sma] });
    await page.reload();
    await canvas(page)
      .and(page.locator('[data-phase=ready][data-indicators="SMA 20"]'))
      .waitFor(LIVE);
    await canvas(page)
      .and(page.locator(`[data-drawings-to="${newest}"]`))
      .waitFor(LIVE);
    const liveShown = Number(await canvas(page).getAttribute('data-drawings-shown'));

    await openReplay(page);
    await bar(page).getByRole('button', { name: 'Start replay' }).click();
    await bar(page).getByTestId('replay-cursor').waitFor(LIVE);
    for (let i = 0; i < 3; i++) {
      const cursor = i === 0 ? await cursorOf(page) : await step(page, 'Step forward');
      await drawnUpToCursor(page, cursor);
      // the trend line ends at the cursor; the lines drawn at later bars are gone
      await canvas(page)
        .and(page.locator(`[data-drawings-to="${cursor}"]`))
        .waitFor(LIVE);
      // the indicator's last value is the cursor bar's
      await canvas(page)
        .and(page.locator(`[data-indicator-last="${cursor}"]`))
        .waitFor(LIVE);
    }
    expect(Number(await canvas(page).getAttribute('data-drawings-shown'))).toBe(liveShown - 2);
    // the bid/ask is the replay's, tagged so
    const ticker = chart(page).locator('.quote-ticker');
    await ticker.and(page.locator('[data-source="replay"]')).waitFor(LIVE);
    await ticker.getByText('Replay', { exact: true }).waitFor(LIVE);
    await screenshot(page, 'replay-drawings-1440-light');

    await exitReplay(page);
    await canvas(page)
      .and(page.locator(`[data-drawings-to="${newest}"]`))
      .waitFor(LIVE);
    await ticker.and(page.locator(':not([data-source="replay"])')).waitFor(LIVE);
    expect(await ticker.getByText('Replay', { exact: true }).count()).toBe(0);
  });

  it('forms the next bar of a 5m chart in 1m steps: the last drawn bar grows step by step', async () => {
    const periods = page.getByRole('radiogroup', { name: 'Period' }).first();
    await periods.getByText('5m', { exact: true }).click();
    await canvas(page).and(page.locator('[data-phase=ready][data-period="5m"]')).waitFor(LIVE);
    await openReplay(page);
    await bar(page).getByRole('button', { name: 'Start replay' }).click();
    await bar(page).getByTestId('replay-cursor').waitFor(LIVE);
    const cursor = await cursorOf(page);
    await drawnUpToCursor(page, cursor);
    const next = cursor + 300;
    // the 1m bars inside the next 5m bar
    const minutes = (
      (await (
        await page.request.get(
          `/trading/kline/lists?symbol=BTCUSDT&cycel=1m&limit=10&last_id=${next + 300}`,
        )
      ).json()) as { data: { lists: { id: number; close: number }[] } }
    ).data.lists.filter((b) => b.id >= next && b.id < next + 300);
    expect(minutes.map((b) => b.id - next)).toEqual([0, 60, 120, 180, 240]);

    await bar(page).getByRole('combobox', { name: 'Steps' }).click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '1m steps' })
      .click();
    for (let k = 1; k <= 4; k++) {
      await bar(page).getByRole('button', { name: 'Step forward' }).click();
      // the cursor stays; the last drawn bar is the next one, as far as k minutes formed it
      await bar(page)
        .getByTestId('replay-cursor')
        .and(page.locator(`[data-cursor="${cursor}"][data-formed="${k}"]`))
        .waitFor(LIVE);
      await canvas(page)
        .and(
          page.locator(
            `[data-replay-cursor="${cursor}"][data-newest="${next}"][data-forming="${next}"][data-forming-close="${minutes[k - 1]!.close}"]`,
          ),
        )
        .waitFor(LIVE);
    }
    await screenshot(page, 'replay-forming-1440-light');
    // the fifth step is the whole bar: the cursor moves onto it
    await bar(page).getByRole('button', { name: 'Step forward' }).click();
    await bar(page)
      .getByTestId('replay-cursor')
      .and(page.locator(`[data-cursor="${next}"][data-formed="0"]`))
      .waitFor(LIVE);
    await canvas(page)
      .and(page.locator(`[data-replay-cursor="${next}"][data-newest="${next}"][data-forming=""]`))
      .waitFor(LIVE);
    await exitReplay(page);
    await periods.getByText('1m', { exact: true }).click();
    await canvas(page).and(page.locator('[data-phase=ready][data-period="1m"]')).waitFor(LIVE);
  });

  it('replays the grid in sync: the other chart shows only bars closed at the replay time', async () => {
    await page.getByTitle('2 charts').click();
    const other = page.getByTestId('chart-canvas').nth(1);
    await other.and(page.locator('[data-phase=ready]')).waitFor(LIVE);
    const otherLive = Number(await other.getAttribute('data-newest'));
    const otherPeriod = (await other.getAttribute('data-period')) ?? '';
    const minutes: Record<string, number> = { '1m': 1, '5m': 5, '15m': 15, '30m': 30, '1h': 60 };
    const length = (minutes[otherPeriod] ?? 0) * 60;
    expect(length, `the other chart's period ${otherPeriod}`).toBeGreaterThan(0);

    await openReplay(page);
    await bar(page).getByRole('button', { name: 'Start replay' }).click();
    await bar(page).getByTestId('replay-cursor').waitFor(LIVE);
    // without sync the other chart stays live
    expect(await other.getAttribute('data-replay-cursor')).toBe('');
    await bar(page).getByRole('switch', { name: 'Sync charts' }).click();
    const otherChart = page.locator('section.trading-chart').nth(1);
    // its legend's badge (its icon alone when the chart is narrow)
    await otherChart
      .getByLabel('Replay sync')
      .or(otherChart.getByText('Replay sync'))
      .waitFor(LIVE);
    for (let i = 0; i < 2; i++) {
      const cursor = i === 0 ? await cursorOf(page) : await step(page, 'Step forward');
      // the replay's time is the close of the cursor's 1m bar; the newest bar closed by then
      const moment = cursor + 60;
      const expected = Math.floor(moment / length) * length - length;
      await other.and(page.locator(`[data-newest="${expected}"]`)).waitFor(LIVE);
      expect(expected).toBeLessThan(otherLive);
    }
    await screenshot(page, 'replay-sync-1440-light');
    await setTheme(page, 'dark');
    await screenshot(page, 'replay-sync-1440-dark');
    await setTheme(page, 'light');

    // sync off: the other chart is live again
    await bar(page).getByRole('switch', { name: 'Sync charts' }).click();
    await other.and(page.locator('[data-replay-cursor=""]')).waitFor(LIVE);
    expect(Number(await other.getAttribute('data-newest'))).toBeGreaterThanOrEqual(otherLive);
    await exitReplay(page);
    await page.getByTitle('1 chart').click();
  });
});

describe('bar replay, phone', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`starts and steps on a phone (${scheme})`, async () => {
      const context = await newContext(browser, 'phone', baseURL);
      const page = await context.newPage();
      await page.emulateMedia({ colorScheme: scheme });
      try {
        await loginThroughPage(page, password);
        await page.waitForURL(/\/phone/);
        await canvas(page).and(page.locator('[data-phase=ready]')).waitFor(LIVE);
        await page.request.post('/api/strategies/', {
          data: { name: PHONE_STRATEGY, code: UP_BARS, create: true },
        });
        const replay = chart(page).getByRole('button', { name: 'Bar replay' });
        if (!(await replay.isVisible())) {
          await chart(page).getByRole('button', { name: 'More tools' }).click();
          await page.getByRole('menuitem', { name: 'Bar replay' }).click();
        } else {
          await replay.click();
        }
        await bar(page).getByRole('combobox', { name: 'Strategy' }).click();
        await page
          .locator('.ant-select-dropdown:visible .ant-select-item-option', {
            hasText: PHONE_STRATEGY,
          })
          .click();
        await bar(page).getByRole('button', { name: 'Start replay' }).click();
        await bar(page).getByTestId('replay-cursor').waitFor(LIVE);
        await drawnUpToCursor(page, await cursorOf(page));
        await step(page, 'Step forward');
        // the strategy's section is folded on a phone, opened on demand
        const toggle = bar(page).getByRole('button', { name: 'Strategy details' });
        expect(await toggle.getAttribute('aria-expanded')).toBe('false');
        await screenshot(page, `replay-phone-390-${scheme}`);
        await toggle.click();
        await bar(page)
          .getByTestId('replay-printed')
          .getByText(/^bars \d+/)
          .waitFor(LIVE);
        await screenshot(page, `replay-strategy-phone-390-${scheme}`);
        await toggle.click();
        await bar(page)
          .getByTestId('replay-printed')
          .waitFor({ state: 'detached', ...LIVE });
        // the phone's trading modal trades the replay's account too
        const buy = chart(page).getByRole('button', { name: 'Buy BTCUSDT' });
        if (!(await buy.isVisible())) {
          await chart(page).getByRole('button', { name: 'More tools' }).click();
          await page.getByRole('menuitem', { name: 'Buy BTCUSDT' }).click();
        } else {
          await buy.click();
        }
        const modal = page.getByRole('dialog', { name: 'BTCUSDT Replay Trading' });
        await modal.getByRole('note', { name: 'Replay account' }).waitFor(LIVE);
        await screenshot(page, `replay-trading-phone-390-${scheme}`);
        await clickInDialog(page, 'BTCUSDT Replay Trading', 'Close');
        await modal.waitFor({ state: 'hidden', ...LIVE });
        const list = (await (await page.request.get('/api/replays')).json()) as {
          replays: { id: string }[];
        };
        for (const r of list.replays) await page.request.delete(`/api/replays/${r.id}`);
      } finally {
        await page.request.delete(`/api/strategies/${encodeURIComponent(PHONE_STRATEGY)}`);
        await context.close();
      }
    });
  }
});
