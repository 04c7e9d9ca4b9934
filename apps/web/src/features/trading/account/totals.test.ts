import { describe, expect, it } from 'vitest';
import { buildPosition } from '../testSupport';
import { positionTotals } from './totals';

const BTC = { volume_multiple: 1, margin_ratio_by_money: 0.1, currency: 'USD' };
const JPY = { volume_multiple: 100_000, margin_ratio_by_money: 0.01, currency: 'JPY' };
const quote = (bid: number, ask: number) => ({
  bid,
  ask,
  last: bid,
  timestamp: 0,
  source: 'realtime' as const,
});

describe('positionTotals', () => {
  const rows = [
    buildPosition({
      orderId: '1',
      cmd: 1,
      volume: 2,
      settledVol: 0.5,
      price: 45_000,
      floatProfit: 150,
    }),
    buildPosition({
      orderId: '2',
      cmd: 2,
      volume: 0.3,
      settledVol: 0,
      price: 45_200,
      floatProfit: 29.85,
    }),
    buildPosition({
      orderId: '3',
      symbol: 'USDJPY',
      cmd: 1,
      volume: 1,
      settledVol: 0,
      price: 150,
      currency: 'JPY',
      floatProfit: -15_000,
    }),
  ];

  it('adds the open lots by side and the live P&L in USD by the account rule', () => {
    // BTCUSDT buy 1.5 @ 45,000 at the bid 45,100: +150; sell 0.3 @ 45,200 at the ask
    // 45,100.5: +29.85; USDJPY buy 1 @ 150 at the bid 149.85: −15,000 JPY at 150 = −100.
    const totals = positionTotals(
      rows,
      { BTCUSDT: BTC, USDJPY: JPY },
      { BTCUSDT: quote(45_100, 45_100.5), USDJPY: quote(149.85, 149.86) },
      { USDJPY: 150 },
    );
    expect(totals).toEqual({ buy: 2.5, sell: 0.3, floatingPnl: 79.85, currency: 'USD' });
  });

  it('until every symbol has a live quote, sums the rows’ own P&L converted to USD', () => {
    const totals = positionTotals(
      rows,
      { BTCUSDT: BTC, USDJPY: JPY },
      { BTCUSDT: quote(45_300, 45_300.5) },
      { USDJPY: 150 },
    );
    // 150 + 29.85 − 15,000 / 150
    expect(totals.floatingPnl).toBe(79.85);
  });

  it('no positions: zero lots and no P&L', () => {
    expect(positionTotals([], {}, {}, {})).toEqual({
      buy: 0,
      sell: 0,
      floatingPnl: 0,
      currency: 'USD',
    });
  });
});
