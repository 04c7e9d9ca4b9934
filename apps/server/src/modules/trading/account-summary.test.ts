import {
  accountFigures,
  accountSummarySchema,
  envelopeSchema,
  sideOfCmd,
  type AccountSummary,
  type PositionView,
} from '@ct/domain';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { createClock, openTestDatabase, testConfig } from '../../test/helpers.ts';
import {
  get,
  post,
  ScriptedMarket,
  traderSession,
  useTradingTestApp,
  type Answer,
  type TradingTestApp,
  type TraderSession,
} from '../../test/trading.ts';

/*
 * GET /trading/account/summary: the account's money by the rule the margin check uses, with
 * what a browser needs to recompute it from live quotes, and the configured margin-level
 * warning. XAUUSD: 100 oz a lot, 5 % margin, commission 5 USD a lot and side.
 */

let t: TradingTestApp;
const events = useTradingTestApp((app) => (t = app), { accountEvents: true });

async function summaryOf(app: TradingTestApp['app'], s: TraderSession): Promise<AccountSummary> {
  const res = await app.inject({
    method: 'GET',
    url: '/trading/account/summary',
    cookies: { ct_sid: s.cookie },
    query: s.creds,
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  return envelopeSchema(accountSummarySchema.strict()).parse(res.json()).data;
}

const summary = (s: TraderSession) => summaryOf(t.app, s);

async function open(s: TraderSession, body: Record<string, unknown>) {
  const res = await post(t, s, '/trading/order/open', {
    ...s.creds,
    symbol: 'XAUUSD',
    cmd: 1,
    ...body,
  });
  return { status: res.statusCode, answer: res.json<Answer<{ order: PositionView } | null>>() };
}

/** The figures a browser recomputes from the answer's own exposure, quotes and rates. */
function recomputed(answer: AccountSummary) {
  const terms = new Map(answer.exposure.map((line) => [line.symbol, line]));
  return accountFigures(
    answer.balance,
    answer.exposure.map((line) => ({ ...line, side: sideOfCmd(line.cmd) })),
    {
      terms: (symbol) => terms.get(symbol),
      quote: (symbol) => {
        const line = terms.get(symbol);
        return line?.bid != null && line.ask != null ? { bid: line.bid, ask: line.ask } : null;
      },
      conversion: {
        USDJPY: answer.conversion.USDJPY,
        EURUSD: answer.conversion.EURUSD,
      },
    },
  );
}

const figuresOf = (a: AccountSummary) => ({
  balance: a.balance,
  unrealizedPnl: a.unrealizedPnl,
  usedMargin: a.usedMargin,
  equity: a.equity,
  freeMargin: a.freeMargin,
  marginLevel: a.marginLevel,
});

describe('GET /trading/account/summary', () => {
  it('answers the figures with the exposure, quotes and rates they were taken from', async () => {
    const s = await traderSession(t);
    const empty = await summary(s);
    expect(empty).toMatchObject({
      balance: 100_000,
      equity: 100_000,
      marginLevel: null,
      exposure: [],
      marginWarningLevel: 100,
      marginWarning: false,
    });

    expect((await open(s, { volume: 1 })).status).toBe(200); // 1 lot at the ask 2000.5
    await t.tick('XAUUSD', 2010, 2010.5);
    const answer = await summary(s);
    // (2010 − 2000.5) × 100 = 950; margin 2000.5 × 100 × 5 % = 10,002.5; commission 5
    expect(answer).toMatchObject({
      balance: 99_995,
      unrealizedPnl: 950,
      equity: 100_945,
      usedMargin: 10_002.5,
      freeMargin: 90_942.5,
      marginLevel: 1009.1977,
      commissionPaid: 5,
      openPositions: 1,
      exposure: [
        {
          symbol: 'XAUUSD',
          cmd: 1,
          volume: 1,
          notional: 2000.5,
          currency: 'USD',
          volume_multiple: 100,
          margin_ratio_by_money: 0.05,
          bid: 2010,
          ask: 2010.5,
        },
      ],
      conversion: { USDJPY: 150, EURUSD: 1.1 },
      marginWarningLevel: 100,
      marginWarning: false,
      at: t.clock.now(),
    });
    expect(recomputed(answer)).toEqual(figuresOf(answer));
  });

  it('a browser recomputing from the answer gets the server’s figures, in yen too', async () => {
    const s = await traderSession(t);
    await open(s, { volume: 0.7 });
    await open(s, { volume: 0.3, cmd: 2 });
    await open(s, { symbol: 'USDJPY', volume: 0.5, cmd: 2 });
    await t.tick('XAUUSD', 1996.3, 1996.8);
    const answer = await summary(s);
    expect(answer.exposure.map((line) => [line.symbol, line.cmd, line.volume])).toEqual(
      expect.arrayContaining([
        ['XAUUSD', 1, 0.7],
        ['XAUUSD', 2, 0.3],
        ['USDJPY', 2, 0.5],
      ]),
    );
    expect(answer.exposure.find((line) => line.symbol === 'USDJPY')?.currency).toBe('JPY');
    expect(recomputed(answer)).toEqual(figuresOf(answer));
  });

  it('the margin check refuses exactly what the summary’s free margin does not cover', async () => {
    const s = await traderSession(t);
    // 9 lots: margin 90,022.5, commission 45; at the bid 2000 the P&L is −450
    expect((await open(s, { volume: 9 })).status).toBe(200);
    const before = await summary(s);
    expect(before).toMatchObject({ equity: 99_505, usedMargin: 90_022.5, freeMargin: 9_482.5 });
    // one more lot takes 10,002.5 + 5 = 10,007.5 > 9,482.5
    const refused = await open(s, { volume: 1 });
    expect(refused.status).toBe(422);
    expect(refused.answer.msg).toBe(
      'Insufficient margin: the order needs 10007.50 USD (margin and commission), free margin is 9482.50 USD',
    );
    // the price rises: equity and free margin with it, and the same lot now fits
    await t.tick('XAUUSD', 2006, 2006.5);
    const after = await summary(s);
    // P&L (2006 − 2000.5) × 900 = 4,950; the lot costs 2006.5 × 5 + 5 = 10,037.5
    expect(after).toMatchObject({ equity: 104_905, freeMargin: 14_882.5 });
    expect((await open(s, { volume: 1 })).status).toBe(200);
  });

  it('warns once the margin level drops below the configured 100 %', async () => {
    const s = await traderSession(t);
    await open(s, { volume: 9 }); // equity 99,505 on a margin of 90,022.5
    expect(await summary(s)).toMatchObject({ marginLevel: 110.5335, marginWarning: false });
    await t.tick('XAUUSD', 1990, 1990.5); // P&L −9,450: equity 90,505
    expect(await summary(s)).toMatchObject({ marginLevel: 100.536, marginWarning: false });
    await t.tick('XAUUSD', 1989, 1989.5); // P&L −10,350: equity 89,605
    expect(await summary(s)).toMatchObject({
      equity: 89_605,
      freeMargin: -417.5,
      marginLevel: 99.5362,
      marginWarningLevel: 100,
      marginWarning: true,
    });
  });

  it('after each fill, close and take-profit the account’s channel says so; the summary shows it', async () => {
    const s = await traderSession(t);
    const opened = await open(s, { volume: 1, tp: 2010 });
    const orderId = opened.answer.data?.order.orderId ?? '';
    expect(events.map((e) => e.type)).toEqual(['position_opened']);
    expect(await summary(s)).toMatchObject({ balance: 99_995, openPositions: 1 });

    events.length = 0;
    const closed = await post(t, s, '/trading/order/close', { ...s.creds, orderId, volume: 0.4 });
    expect(closed.statusCode).toBe(200);
    expect(events).toMatchObject([{ type: 'position_closed', orderId, full: false }]);
    // sold 0.4 at the bid 2000: −0.5 × 40 = −20 and a close commission of 2
    expect(await summary(s)).toMatchObject({ balance: 99_973, usedMargin: 6_001.5 });

    events.length = 0;
    await t.tick('XAUUSD', 2010, 2010.5); // the take-profit of the other 0.6
    expect(events).toMatchObject([
      { type: 'position_closed', orderId, full: true, closeReason: 1 },
    ]);
    // + (2010 − 2000.5) × 60 = 570, − 3 commission
    expect(await summary(s)).toMatchObject({
      balance: 100_540,
      equity: 100_540,
      usedMargin: 0,
      marginLevel: null,
      openPositions: 0,
      exposure: [],
    });
  });

  it('answers only the session user’s own account', async () => {
    const s = await traderSession(t);
    const other = await traderSession(t);
    const res = await get(t, s, '/trading/account/summary', other.creds);
    expect(res.json()).toMatchObject({ code: 50002, data: null });
  });
});

describe('a configured margin warning level', () => {
  it('MARGIN_WARNING_LEVEL is 100 % unless set; a bad value stops the start', () => {
    expect(loadConfig({}, '/x').marginWarningLevel).toBe(100);
    expect(loadConfig({ MARGIN_WARNING_LEVEL: '150' }, '/x').marginWarningLevel).toBe(150);
    expect(() => loadConfig({ MARGIN_WARNING_LEVEL: 'high' }, '/x')).toThrow(ConfigError);
    expect(() => loadConfig({ MARGIN_WARNING_LEVEL: '-1' }, '/x')).toThrow(/MARGIN_WARNING_LEVEL/);
  });

  it('the summary warns below the level the server was started with', async () => {
    const testDb = await openTestDatabase();
    const market = new ScriptedMarket();
    market.setQuote('XAUUSD', 2000, 2000.5);
    const app = await buildApp({
      db: testDb.db,
      config: testConfig({ marginWarningLevel: 150 }),
      now: createClock().now,
      market,
    });
    try {
      market.publish = (symbol) => app.services.feed.pollSymbol(symbol);
      app.services.feed.poll();
      const s = await traderSession({ ...t, app, db: testDb.db });
      const res = await app.inject({
        method: 'POST',
        url: '/trading/order/open',
        cookies: { ct_sid: s.cookie },
        payload: { ...s.creds, symbol: 'XAUUSD', cmd: 1, volume: 9 },
      });
      expect(res.statusCode).toBe(200);
      expect(await summaryOf(app, s)).toMatchObject({
        marginLevel: 110.5335,
        marginWarningLevel: 150,
        marginWarning: true,
      });
    } finally {
      await app.close();
      await testDb.close();
    }
  });
});
