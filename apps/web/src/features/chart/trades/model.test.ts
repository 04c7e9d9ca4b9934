import type { OrderLogView } from '@ct/domain';
import { describe, expect, it } from 'vitest';
import { buildPending, buildPosition } from '../../trading/testSupport';
import {
  checkExitDrop,
  checkPendingDrop,
  exitEditOf,
  fillMarkersOf,
  lineProfit,
  mergeMarkers,
  pendingChangeOf,
  snapDragPrice,
  tradeLinesOf,
  type TradeLine,
} from './model';

function log(overrides: Partial<OrderLogView>): OrderLogView {
  return {
    sortId: 1,
    symbol: 'BTCUSDT',
    cmd: 1,
    actionType: 1,
    orderType: 1,
    volume: 1,
    price: 50_000.5,
    marketPrice: 50_000.5,
    orderStatus: 2,
    createdAt: 1_700_000_130,
    transactTime: 1_700_000_130,
    commissionFee: 0,
    currency: 'USD',
    tp: 0,
    sl: 0,
    orderId: '12',
    pId: null,
    message: '',
    clientOrderId: null,
    ...overrides,
  };
}

describe('the lines of a chart', () => {
  it('draws an open position at its open price with its open volume, and its TP and SL', () => {
    const position = buildPosition({
      orderId: '12',
      cmd: 1,
      volume: 1,
      settledVol: 0.4,
      price: 50_000.5,
      tp: 50_100,
      sl: 49_900,
    });
    const lines = tradeLinesOf([position], [], 'BTCUSDT');
    expect(lines.map((l) => [l.id, l.kind, l.price, l.side, l.volume, l.draggable])).toEqual([
      ['position:12', 'position', 50_000.5, 'buy', 0.6, false],
      ['tp:12', 'tp', 50_100, 'buy', 0.6, true],
      ['sl:12', 'sl', 49_900, 'buy', 0.6, true],
    ]);
  });

  it('leaves out levels not set, other instruments and closed positions', () => {
    const lines = tradeLinesOf(
      [
        buildPosition({ orderId: '1', cmd: 2, tp: 0, sl: 46_000 }),
        buildPosition({ orderId: '2', symbol: 'ETHUSDT', tp: 4_000 }),
        buildPosition({ orderId: '3', status: 'closed' }),
        buildPosition({ orderId: '4', volume: 1, settledVol: 1 }),
      ],
      [],
      'BTCUSDT',
    );
    expect(lines.map((l) => l.id)).toEqual(['position:1', 'sl:1']);
    expect(lines[0]?.side).toBe('sell');
  });

  it('draws a working pending order at its price with side, type, volume and time in force', () => {
    const lines = tradeLinesOf(
      [],
      [
        buildPending({
          pId: '7',
          cmd: 2,
          volume: 0.5,
          pendPrice: 49_000,
          triggerType: 'stop',
          expireType: 'GFD',
        }),
        buildPending({ pId: '8', symbol: 'ETHUSDT' }),
      ],
      'BTCUSDT',
    );
    expect(lines).toEqual([
      {
        id: 'pending:7',
        kind: 'pending',
        price: 49_000,
        side: 'sell',
        volume: 0.5,
        orderId: null,
        pId: '7',
        // dragged to change its price
        draggable: true,
        trigger: 'stop',
        expireType: 'GFD',
      },
    ]);
  });
});

describe('dragging a TP or SL', () => {
  it('snaps the price under the pointer to the nearest tick', () => {
    expect(snapDragPrice(100.04, 0.1)).toBe(100);
    expect(snapDragPrice(100.06, 0.1)).toBe(100.1);
    expect(snapDragPrice(50_123.4, 0.5)).toBe(50_123.5);
    expect(snapDragPrice(1.234567, 0.00001)).toBe(1.23457);
  });

  it('refuses a level outside the Edit Order panel’s range with its message', () => {
    // a buy opened at 100, tick 0.1: TP 100.1 to 120.0, SL 80.0 to 99.9
    const base = { side: 'buy' as const, openPrice: 100, tick: 0.1, quote: null };
    expect(checkExitDrop({ ...base, kind: 'tp', price: 130 })).toBe(
      'TP price must be between 100.1 and 120.0',
    );
    expect(checkExitDrop({ ...base, kind: 'tp', price: 99.5 })).toBe(
      'TP price must be between 100.1 and 120.0',
    );
    expect(checkExitDrop({ ...base, kind: 'sl', price: 79 })).toBe(
      'SL price must be between 80.0 and 99.9',
    );
    expect(checkExitDrop({ ...base, kind: 'tp', price: 110 })).toBeNull();
    expect(checkExitDrop({ ...base, kind: 'sl', price: 90 })).toBeNull();
    // a sell mirrors it
    expect(checkExitDrop({ ...base, side: 'sell', kind: 'sl', price: 99 })).toBe(
      'SL price must be between 100.1 and 120.0',
    );
  });

  it('refuses a level the market has already passed (the server’s rule)', () => {
    const base = { side: 'buy' as const, openPrice: 100, tick: 0.1 };
    // a buy closes at the bid: TP must stay above it, SL below it
    expect(
      checkExitDrop({ ...base, kind: 'tp', price: 110, quote: { bid: 111, ask: 111.5 } }),
    ).toBe('TP price must be above the current price 111.0');
    expect(checkExitDrop({ ...base, kind: 'sl', price: 95, quote: { bid: 94, ask: 94.5 } })).toBe(
      'SL price must be below the current price 94.0',
    );
    expect(
      checkExitDrop({ ...base, kind: 'tp', price: 110, quote: { bid: 105, ask: 105.5 } }),
    ).toBeNull();
  });

  it('moves one level and keeps the other (the call sets both)', () => {
    expect(exitEditOf({ tp: 110, sl: 95 }, 'tp', 112)).toEqual({
      tp: 112,
      sl: 95,
      tpEnabled: true,
      slEnabled: true,
    });
    expect(exitEditOf({ tp: 110, sl: 0 }, 'tp', 112)).toEqual({
      tp: 112,
      sl: null,
      tpEnabled: true,
      slEnabled: false,
    });
    expect(exitEditOf({ tp: 110, sl: 95 }, 'sl', 96)).toEqual({
      tp: 110,
      sl: 96,
      tpEnabled: true,
      slEnabled: true,
    });
  });
});

describe('dragging a pending order', () => {
  it('moves its TP and SL along with its price, on the tick; unset levels stay unset', () => {
    const pending = { pendPrice: 49_000, tp: 49_500, sl: 0 };
    // −1234.5: TP 49 500 → 48 265.5
    expect(pendingChangeOf(pending, 47_765.5, 0.1)).toEqual({
      price: 47_765.5,
      tp: 48_265.5,
      sl: 0,
    });
  });

  it('checks the ticket’s limit rule against the side’s quote, then the moved levels', () => {
    const quote = { bid: 50_000, ask: 50_000.5 };
    // a buy is measured against the ask: 0.999 × 50 000.5 → 49 950.4
    expect(checkPendingDrop('buy', { price: 49_960, tp: 0, sl: 0 }, quote, 0.1)).toBe(
      'Limit price must be between 40000.4 and 49950.4 (below the market) or between 50050.6 and 60000.6 (above the market)',
    );
    // a sell above the bid: 1.001 × 50 000 = 50 050 to 1.2 × = 60 000
    expect(checkPendingDrop('sell', { price: 50_050, tp: 0, sl: 0 }, quote, 0.1)).toBeNull();
    // a buy's SL must be below its price
    expect(checkPendingDrop('buy', { price: 49_000, tp: 0, sl: 49_100 }, quote, 0.1)).toBe(
      'SL price must be between 39200.0 and 48951.0',
    );
    expect(checkPendingDrop('buy', { price: 49_000, tp: 0, sl: 0 }, null, 0.1)).toBe(
      'No quote available for this instrument',
    );
  });
});

describe('what a line stands for', () => {
  const terms = { volume_multiple: 10, margin_ratio_by_money: 0.1 };
  const buy: TradeLine = {
    id: 'position:1',
    kind: 'position',
    price: 100,
    side: 'buy',
    volume: 0.6,
    orderId: '1',
    pId: null,
    draggable: false,
    trigger: null,
    expireType: null,
  };

  it('a position: floating P&L at the closing side of the quote', () => {
    // buy closes at the bid: (101 − 100) × 0.6 × 10 = 6.00
    expect(lineProfit(buy, 100, { bid: 101, ask: 101.5 }, terms)).toBe(6);
    // sell closes at the ask: −(101.5 − 100) × 0.6 × 10 = −9.00
    expect(lineProfit({ ...buy, side: 'sell' }, 100, { bid: 101, ask: 101.5 }, terms)).toBe(-9);
    expect(lineProfit(buy, 100, null, terms)).toBeNull();
  });

  it('a TP or SL: the P&L if the position closed there', () => {
    // (110 − 100) × 0.6 × 10 = 60.00; (95 − 100) × 0.6 × 10 = −30.00
    expect(lineProfit({ ...buy, kind: 'tp', price: 110 }, 100, null, terms)).toBe(60);
    expect(lineProfit({ ...buy, kind: 'sl', price: 95 }, 100, null, terms)).toBe(-30);
    expect(lineProfit({ ...buy, kind: 'tp', price: 110 }, 100, null, null)).toBeNull();
  });
});

describe('fills as markers', () => {
  const colors = { buy: 'green', sell: 'red' };
  const text = (side: string, volume: number) => `${side} ${volume}`;

  it('marks each filled order at the bar holding its fill time, tip at the fill price', () => {
    const markers = fillMarkersOf(
      [
        // newest first, as the order log answers
        log({
          sortId: 4,
          cmd: 2,
          actionType: 2,
          price: 50_100,
          volume: 0.4,
          transactTime: 1_700_000_250,
        }),
        log({ sortId: 3, orderStatus: 4, transactTime: 1_700_000_200 }), // canceled
        log({ sortId: 2, orderStatus: 1, price: 0 }), // refused
        log({ sortId: 5, symbol: 'ETHUSDT' }),
        // a TP/SL change and a pending order's change: logged as filled, but no fill
        log({ sortId: 6, actionType: 3, price: 50_000.5, transactTime: 1_700_000_300 }),
        log({ sortId: 7, actionType: 3, pId: '9', price: 49_000, transactTime: 1_700_000_310 }),
        log({ sortId: 1, transactTime: 1_700_000_130 }),
      ],
      'BTCUSDT',
      '1m',
      colors,
      text,
    );
    // 1 700 000 130 s lies in the minute from 1 700 000 100; 1 700 000 250 in the one from 220
    expect(markers).toEqual([
      {
        time: 1_700_000_100,
        position: 'atPriceTop',
        price: 50_000.5,
        shape: 'arrowUp',
        color: 'green',
        text: 'buy 1',
      },
      {
        time: 1_700_000_220,
        position: 'atPriceBottom',
        price: 50_100,
        shape: 'arrowDown',
        color: 'red',
        text: 'sell 0.4',
      },
    ]);
  });

  it('uses the bar of the chart’s period', () => {
    const [marker] = fillMarkersOf(
      [log({ transactTime: 1_700_000_130 })],
      'BTCUSDT',
      '1h',
      colors,
      text,
    );
    // 1 700 000 130 s is 2023-11-14 22:15:30 UTC; its hour starts at 22:00 = 1 699 999 200
    expect(marker?.time).toBe(1_699_999_200);
  });

  it('gives each fill its crowded label and its details when asked', () => {
    const [marker] = fillMarkersOf([log({ price: 50_100.5 })], 'BTCUSDT', '1m', colors, text, {
      short: (side) => (side === 'buy' ? 'B' : 'S'),
      detail: (side, volume, price) => `${side} ${volume} at ${price}`,
    });
    expect(marker).toMatchObject({ short: 'B', detail: 'buy 1 at 50100.5' });
  });

  it('sits beside the strategy’s markers in time order', () => {
    const deal = {
      time: 150,
      position: 'aboveBar',
      shape: 'arrowDown',
      color: 'x',
      text: 'OS',
    } as const;
    const fill = {
      time: 100,
      position: 'atPriceTop',
      price: 1,
      shape: 'arrowUp',
      color: 'y',
      text: 'Buy 1',
    } as const;
    expect(mergeMarkers([deal], [fill])).toEqual([fill, deal]);
    const deals = [deal];
    expect(mergeMarkers(deals, [])).toBe(deals);
  });
});
