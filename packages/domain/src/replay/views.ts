import { formatContractDate } from '../backtest/dates.ts';
import {
  annualReturn,
  maxDrawdown,
  sharpeRatio,
  type Deal,
  type Performance,
} from '../backtest/metrics.ts';
import { DAY_MS } from '../market/periods.ts';
import { roundTo } from '../market/price.ts';
import type { PendingView, PositionView, SettleView } from '../trading/schemas.ts';
import { closingPrice } from '../trading/values.ts';
import type { ReplayView } from './schemas.ts';
import { roundMoney } from '../values/units.ts';

/*
 * A replay session as the trading panel's tables and the backtest's results modal show it
 * (docs/architecture.md, "Bar replay"): the same shapes as the trading account's rows and a
 * backtest's deals and performance, so the same components show them.
 */

/** The `uuid` a replay session's rows carry: they belong to that session's account. */
export function replayAccountOf(sessionId: string): string {
  return `replay:${sessionId}`;
}

const cmdOf = (side: 'buy' | 'sell') => (side === 'buy' ? 1 : 2);
const CLOSE_REASONS = { manual: 0, tp: 1, sl: 2, strategy: 4 } as const;

/** yyyymmdd of a UTC time in epoch seconds. */
function settleDateOf(seconds: number): number {
  const d = new Date(seconds * 1000);
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

/**
 * The session's open positions, pending orders and closed trades as the trading tables'
 * rows (newest settlement first). Prices and P&L are the session's at its cursor; a
 * strategy's rows say `strategy` in their comment.
 */
export function replayTradingRows(view: ReplayView): {
  positions: PositionView[];
  pendings: PendingView[];
  settles: SettleView[];
} {
  const uuid = replayAccountOf(view.id);
  const currency = view.account.currency;
  const positions = view.positions.map((p): PositionView => ({
    orderId: String(p.id),
    uuid,
    symbol: view.symbol_id,
    cmd: cmdOf(p.side),
    volume: p.volume,
    settledVol: 0,
    price: p.open_price,
    marketPrice: closingPrice(p.side, view.quote),
    tp: p.tp,
    sl: p.sl,
    floatProfit: p.profit,
    currency,
    commissionFee: 0,
    storage: 0,
    createdAt: p.open_time,
    closeType: 0,
    status: 'open',
    comment: p.source === 'strategy' ? 'strategy' : '',
    clientOrderId: null,
    pId: null,
  }));
  const pendings = view.pending.map((p): PendingView => ({
    pId: String(p.id),
    uuid,
    symbol: view.symbol_id,
    cmd: cmdOf(p.side),
    volume: p.volume,
    pendPrice: p.price,
    tp: p.tp,
    sl: p.sl,
    expireType: 'GTC',
    expiresAt: null,
    createdAt: p.placed_at,
    triggerType: p.trigger,
    status: 'working',
    orderId: null,
    comment: p.source === 'strategy' ? 'strategy' : '',
    clientOrderId: null,
  }));
  const open = new Set(view.positions.map((p) => p.id));
  const settles = view.trades.map((t, i): SettleView => {
    // a part of a position is the full close only when nothing of the position is left
    const later = view.trades.slice(i + 1).some((u) => u.position_id === t.position_id);
    const full = !later && !open.has(t.position_id);
    const openCommission = roundMoney(t.commission / 2);
    return {
      tradeId: `${t.position_id}-${i + 1}`,
      sortId: i + 1,
      orderId: String(t.position_id),
      symbol: view.symbol_id,
      openCmd: cmdOf(t.side),
      closeCmd: cmdOf(t.side === 'buy' ? 'sell' : 'buy'),
      openPrice: t.open_price,
      closePrice: t.close_price,
      settleVolume: t.volume,
      isSettled: full ? 2 : 1,
      settleDate: settleDateOf(t.close_time),
      settleProfit: roundMoney(t.profit + t.commission),
      openAt: t.open_time,
      closeAt: t.close_time,
      openCommission,
      closeCommission: roundMoney(t.commission - openCommission),
      currency,
      closeReason: CLOSE_REASONS[t.reason],
      closeType: 0,
      comment: t.source === 'strategy' ? 'strategy' : '',
    };
  });
  return { positions, pendings, settles: settles.reverse() };
}

/**
 * The session's results as a backtest's: its closed trades and open positions as deals (an
 * open one valued at the cursor's close, status 'NOT'), and the performance figures from
 * those deals and the session's equity at every replayed close. Commission is the
 * instrument's, as the session charged it (`terms` may name it; else its trades tell it).
 */
export function replayResults(
  view: ReplayView,
  terms: { volume_multiple: number; commission_per_lot?: number } | null = null,
): { deals: Deal[]; performance: Performance } {
  // the commission per lot and side the session charged (its trades show it), or the terms'
  const charged = view.trades.find((t) => t.volume > 0);
  const commissionPerLot =
    terms?.commission_per_lot ??
    (charged ? roundTo(charged.commission / (2 * charged.volume), 6) : 0);
  const closed = view.trades.map((t): Deal => ({
    open_date: formatContractDate(t.open_time * 1000),
    close_date: formatContractDate(t.close_time * 1000),
    open_price: t.open_price,
    close_price: t.close_price,
    lots: t.side === 'buy' ? t.volume : -t.volume,
    status: 'YES',
    profit: t.profit,
    commission: t.commission,
    start: t.open_time,
    end: t.close_time,
    qty: t.volume,
  }));
  const open = view.positions.map((p): Deal => ({
    open_date: formatContractDate(p.open_time * 1000),
    close_date: null,
    open_price: p.open_price,
    close_price: closingPrice(p.side, view.quote),
    lots: p.side === 'buy' ? p.volume : -p.volume,
    status: 'NOT',
    profit: p.profit,
    commission: 0,
    start: p.open_time,
    end: null,
    qty: p.volume,
  }));
  const deals = [...closed, ...open];
  const profits = deals.map((d) => d.profit);
  const wins = profits.filter((p) => p > 0);
  const losses = profits.filter((p) => p < 0);
  const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
  const totalProfit = roundMoney(sum(wins));
  const totalLoss = roundMoney(sum(losses));
  const initial = view.account.initial_balance;
  const finalEquity = view.account.equity;
  const netProfit = roundMoney(finalEquity - initial);
  const count = deals.length;
  const winRate = count > 0 ? roundTo(wins.length / count, 6) : 0;
  const averageWin = wins.length > 0 ? totalProfit / wins.length : 0;
  const averageLoss = losses.length > 0 ? -totalLoss / losses.length : 0;
  const curve = view.equity.map((e) => e.equity);
  const drawdown = maxDrawdown(curve, initial);
  const first = (view.equity[0]?.time ?? view.start) * 1000;
  const last = (view.equity.at(-1)?.time ?? view.cursor) * 1000;
  const daysPerYear = 365;
  const minAnnualiseDays = 30;
  const years = (last - first) / (daysPerYear * DAY_MS);
  const barsPerYear = years > 0 && curve.length > 1 ? (curve.length - 1) / years : null;
  const minYears = minAnnualiseDays / daysPerYear;
  // most lots held at once: the fills in order, opens adding and closes taking away
  let held = 0;
  let most = 0;
  for (const fill of view.fills) {
    held += fill.action === 'open' ? fill.volume : -fill.volume;
    most = Math.max(most, held);
  }
  const performance: Performance = {
    合约: view.symbol_id,
    周期: view.period,
    开始时间: formatContractDate(first),
    结束时间: formatContractDate(last),
    交易次数: count,
    胜率: winRate,
    盈亏比: losses.length === 0 ? null : roundTo(averageWin / averageLoss, 4),
    总盈利: totalProfit,
    总亏损: totalLoss,
    净利润: netProfit,
    最大持仓: roundTo(most, 6),
    平均每笔盈利: count > 0 ? roundMoney(sum(profits) / count) : 0,
    profit_rate: roundTo(netProfit / initial, 6),
    annual_return: annualReturn(initial, finalEquity, years, minYears),
    max_drawdown: roundTo(drawdown.fraction, 6),
    max_drawdown_amount: roundMoney(drawdown.amount),
    win_rate: winRate,
    sharpe_ratio: years >= minYears ? sharpeRatio(curve, barsPerYear, 0) : null,
    profit_factor: losses.length === 0 ? null : roundTo(totalProfit / -totalLoss, 4),
    expectancy: count > 0 ? roundMoney(sum(profits) / count) : 0,
    winning_trades: wins.length,
    losing_trades: losses.length,
    open_trades: open.length,
    commission_total: roundMoney(sum(deals.map((d) => d.commission))),
    initial_capital: initial,
    final_equity: finalEquity,
    bar_count: curve.length,
    equity_curve: view.equity.map((e) => [formatContractDate(e.time * 1000), e.equity]),
    conventions: {
      initial_capital: initial,
      contract_multiplier: terms?.volume_multiple ?? 1,
      commission_per_lot: commissionPerLot,
      risk_free_rate: 0,
      days_per_year: daysPerYear,
      min_annualise_days: minAnnualiseDays,
      currency: view.account.currency,
      bars_per_year: barsPerYear === null ? null : roundTo(barsPerYear, 4),
      open_trades_valued_at: 'last_close',
    },
  };
  return { deals, performance };
}
