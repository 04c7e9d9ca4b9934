import type { ValidTrade } from '../backtest/contract.ts';
import { roundTo } from '../market/price.ts';
import { commissionFor } from '../trading/values.ts';
import type {
  ComparedTradeView,
  LiveRunComparison,
  MatchedTradeView,
  PnlCauses,
} from './schemas.ts';
import { roundLots, roundMoney, toEpochSec } from '../values/units.ts';

/*
 * Backtest vs forward (issue 19): the trades a run made on paper against the trades the same
 * code makes in a backtest over the same bars. Trades are matched by side and entry time
 * within a tolerance; the P&L gap (forward − backtest) is split into causes that add up to it.
 *
 * For a matched pair with k = direction × multiplier × volume (direction +1 buy, −1 sell):
 *   open leg:  −k × (forward fill − backtest open price), split at the price the bars are
 *              built from when the order filled (the bid: kline prices are bids) and at the
 *              strategy's own price for the forward entry:
 *              spread = −k × (fill − reference), slippage = −k × (reference − strategy price),
 *              missed_bars = −k × (strategy price − backtest price) (another bar's price);
 *   close leg: +k × (forward close − backtest close), split the same way;
 *   commission = −(forward commission − backtest commission);
 *   other = what remains (a different volume, rounding to cents).
 * A trade in one list only counts whole under missed_bars. Trades still open are valued at
 * the last bar close, their exit commission not charged.
 */

/** One fill of a forward trade. */
export type ForwardFill = {
  /** Start of the bar whose close the order was sent at, UTC ms. */
  barTime: number;
  /** Fill price. */
  price: number;
  /** The bars' price (bid) when it filled; null when unknown (then no spread is split off). */
  reference: number | null;
  /** The strategy's price for it: the record's open price, or the bar close when closing. */
  strategyPrice: number;
  /** Commission charged for it, instrument currency. */
  commission: number;
};

/** A position a run opened (and perhaps closed). */
export type ForwardTrade = {
  cmd: 1 | 2;
  volume: number;
  open: ForwardFill;
  close: ForwardFill | null;
};

/** A backtest trade on the run's scale: bar starts (UTC ms), volume = |lots| × multiplier. */
export type BacktestTrade = {
  cmd: 1 | 2;
  volume: number;
  openBarTime: number;
  openPrice: number;
  closeBarTime: number | null;
  closePrice: number | null;
};

export type CompareInput = {
  backtest: readonly BacktestTrade[];
  forward: readonly ForwardTrade[];
  /** Units of the underlying per lot (the instrument's volume_multiple). */
  contractMultiplier: number;
  /** The backtest's commission per lot and side. */
  commissionPerLot: number;
  /** Largest distance between two entries that still match, ms (e.g. one bar). */
  toleranceMs: number;
  /** Last bar close of the stretch: open trades are valued at it. */
  lastClose: number;
};

/** The comparison's trades, pairs, totals, causes and curves (LiveRunComparison's core). */
export type ComparisonCore = Pick<
  LiveRunComparison,
  | 'matched'
  | 'only_backtest'
  | 'only_forward'
  | 'pnl_backtest'
  | 'pnl_forward'
  | 'causes'
  | 'curve_backtest'
  | 'curve_forward'
>;

const priceOf = (value: number) => roundTo(value, 4);
const directionOf = (cmd: 1 | 2) => (cmd === 1 ? 1 : -1);

/**
 * Backtest trades from a backtest's validated records on its bars (`barTimes`, ascending UTC
 * ms), scaled to the run: volume = |lots| × `lotsMultiplier` (8 decimals).
 */
export function backtestTradesOf(
  trades: readonly ValidTrade[],
  barTimes: readonly number[],
  lotsMultiplier: number,
): BacktestTrade[] {
  return trades.map((t) => ({
    cmd: t.lots < 0 ? 2 : 1,
    volume: roundLots(Math.abs(t.lots) * lotsMultiplier),
    openBarTime: barTimes[t.openIndex] ?? t.openTime,
    openPrice: t.openPrice,
    closeBarTime: t.closeIndex === null ? null : (barTimes[t.closeIndex] ?? t.closeTime),
    closePrice: t.closePrice,
  }));
}

type Priced = { view: ComparedTradeView; gross: number; commission: number };

function backtestView(t: BacktestTrade, c: CompareInput): Priced {
  const closed = t.closePrice !== null && t.closeBarTime !== null;
  const exit = closed ? (t.closePrice ?? c.lastClose) : c.lastClose;
  const gross = roundMoney(
    directionOf(t.cmd) * (exit - t.openPrice) * t.volume * c.contractMultiplier,
  );
  const commission = commissionFor((closed ? 2 : 1) * t.volume, c.commissionPerLot);
  return {
    gross,
    commission,
    view: {
      cmd: t.cmd,
      volume: t.volume,
      open_time: toEpochSec(t.openBarTime),
      open_price: t.openPrice,
      close_time: closed ? toEpochSec(t.closeBarTime ?? 0) : null,
      close_price: closed ? t.closePrice : null,
      profit: roundMoney(gross - commission),
      commission,
    },
  };
}

function forwardView(t: ForwardTrade, c: CompareInput): Priced {
  const exit = t.close ? t.close.price : c.lastClose;
  const gross = roundMoney(
    directionOf(t.cmd) * (exit - t.open.price) * t.volume * c.contractMultiplier,
  );
  const commission = roundMoney(t.open.commission + (t.close?.commission ?? 0));
  return {
    gross,
    commission,
    view: {
      cmd: t.cmd,
      volume: t.volume,
      open_time: toEpochSec(t.open.barTime),
      open_price: t.open.price,
      close_time: t.close ? toEpochSec(t.close.barTime) : null,
      close_price: t.close ? t.close.price : null,
      profit: roundMoney(gross - commission),
      commission,
    },
  };
}

/** Pairs backtest trades with forward trades: same side, nearest entry within tolerance. */
function pairUp(
  backtest: readonly BacktestTrade[],
  forward: readonly ForwardTrade[],
  toleranceMs: number,
): { pairs: [number, number][]; onlyBacktest: number[]; onlyForward: number[] } {
  const used = new Set<number>();
  const pairs: [number, number][] = [];
  const onlyBacktest: number[] = [];
  const order = backtest
    .map((_, i) => i)
    .sort((a, b) => {
      return (backtest[a]?.openBarTime ?? 0) - (backtest[b]?.openBarTime ?? 0) || a - b;
    });
  for (const i of order) {
    const b = backtest[i];
    if (!b) continue;
    let best = -1;
    let bestDistance = Number.POSITIVE_INFINITY;
    forward.forEach((f, j) => {
      if (used.has(j) || f.cmd !== b.cmd) return;
      const distance = Math.abs(f.open.barTime - b.openBarTime);
      if (distance <= toleranceMs && distance < bestDistance) {
        best = j;
        bestDistance = distance;
      }
    });
    if (best < 0) onlyBacktest.push(i);
    else {
      used.add(best);
      pairs.push([i, best]);
    }
  }
  const onlyForward = forward.map((_, j) => j).filter((j) => !used.has(j));
  return { pairs, onlyBacktest, onlyForward };
}

type Causes = { spread: number; slippage: number; missed_bars: number; commission: number };

/** The causes of one matched pair's gap (unrounded), by the legs described above. */
function pairCauses(b: BacktestTrade, f: ForwardTrade, bt: Priced, fw: Priced, c: CompareInput) {
  const k = directionOf(f.cmd) * c.contractMultiplier * f.volume;
  const causes: Causes = { spread: 0, slippage: 0, missed_bars: 0, commission: 0 };
  // open leg: paying more for the entry costs the forward test
  const openRef = f.open.reference ?? f.open.price;
  causes.spread += -k * (f.open.price - openRef);
  causes.slippage += -k * (openRef - f.open.strategyPrice);
  causes.missed_bars += -k * (f.open.strategyPrice - b.openPrice);
  // close leg: an open side is valued at the last close
  const backtestExit =
    b.closePrice !== null && b.closeBarTime !== null ? b.closePrice : c.lastClose;
  if (f.close) {
    const closeRef = f.close.reference ?? f.close.price;
    causes.spread += k * (f.close.price - closeRef);
    causes.slippage += k * (closeRef - f.close.strategyPrice);
    causes.missed_bars += k * (f.close.strategyPrice - backtestExit);
  } else {
    causes.missed_bars += k * (c.lastClose - backtestExit);
  }
  causes.commission = -(fw.commission - bt.commission);
  return causes;
}

/** Cumulative P&L at each trade's close (open trades at `endTime`), ascending by time. */
function curveOf(trades: readonly ComparedTradeView[], endTime: number): [number, number][] {
  const points = trades
    .map((t) => ({ at: t.close_time ?? endTime, profit: t.profit }))
    .sort((a, b) => a.at - b.at);
  const curve: [number, number][] = [];
  let total = 0;
  for (const point of points) {
    total = roundMoney(total + point.profit);
    const last = curve.at(-1);
    if (last && last[0] === point.at) last[1] = total;
    else curve.push([point.at, total]);
  }
  return curve;
}

/**
 * Compares a run's forward trades with the backtest's over the same bars (see the rules at
 * the top of this file). Money has 2 decimals, price differences 4; the causes add up to
 * pnl_forward − pnl_backtest exactly (rounding to cents goes to `other`). `endTime` (UTC ms)
 * places trades still open on the curves.
 */
export function compareRuns(input: CompareInput, endTime: number): ComparisonCore {
  const bt = input.backtest.map((t) => backtestView(t, input));
  const fw = input.forward.map((t) => forwardView(t, input));
  const { pairs, onlyBacktest, onlyForward } = pairUp(
    input.backtest,
    input.forward,
    input.toleranceMs,
  );
  const total: Causes = { spread: 0, slippage: 0, missed_bars: 0, commission: 0 };
  const matched: MatchedTradeView[] = [];
  for (const [i, j] of pairs) {
    const b = input.backtest[i];
    const f = input.forward[j];
    const bv = bt[i];
    const fv = fw[j];
    if (!b || !f || !bv || !fv) continue;
    const causes = pairCauses(b, f, bv, fv, input);
    total.spread += causes.spread;
    total.slippage += causes.slippage;
    total.missed_bars += causes.missed_bars;
    total.commission += causes.commission;
    const bothClosed = bv.view.close_price !== null && fv.view.close_price !== null;
    matched.push({
      backtest: bv.view,
      forward: fv.view,
      open_price_diff: priceOf(fv.view.open_price - bv.view.open_price),
      close_price_diff: bothClosed
        ? priceOf((fv.view.close_price ?? 0) - (bv.view.close_price ?? 0))
        : null,
      open_delay: fv.view.open_time - bv.view.open_time,
      close_delay: bothClosed ? (fv.view.close_time ?? 0) - (bv.view.close_time ?? 0) : null,
      profit_diff: roundMoney(fv.view.profit - bv.view.profit),
    });
  }
  for (const i of onlyBacktest) total.missed_bars -= bt[i]?.view.profit ?? 0;
  for (const j of onlyForward) total.missed_bars += fw[j]?.view.profit ?? 0;

  const pnlBacktest = roundMoney(bt.reduce((sum, t) => sum + t.view.profit, 0));
  const pnlForward = roundMoney(fw.reduce((sum, t) => sum + t.view.profit, 0));
  const gap = roundMoney(pnlForward - pnlBacktest);
  const causes: PnlCauses = {
    spread: roundMoney(total.spread),
    commission: roundMoney(total.commission),
    slippage: roundMoney(total.slippage),
    missed_bars: roundMoney(total.missed_bars),
    other: 0,
  };
  causes.other = roundMoney(
    gap - causes.spread - causes.commission - causes.slippage - causes.missed_bars,
  );
  const backtestViews = bt.map((t) => t.view);
  const forwardViews = fw.map((t) => t.view);
  const end = toEpochSec(endTime);
  return {
    matched,
    only_backtest: onlyBacktest.flatMap((i) => (bt[i] ? [bt[i].view] : [])),
    only_forward: onlyForward.flatMap((j) => (fw[j] ? [fw[j].view] : [])),
    pnl_backtest: pnlBacktest,
    pnl_forward: pnlForward,
    causes,
    curve_backtest: curveOf(backtestViews, end),
    curve_forward: curveOf(forwardViews, end),
  };
}
