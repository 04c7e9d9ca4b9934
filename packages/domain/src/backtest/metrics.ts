import { DAY_MS } from '../market/periods.ts';
import { roundTo } from '../market/price.ts';
import { TOLERANCE } from '../values/tolerance.ts';
import { commissionFor, profitLoss, type ContractTerms } from '../trading/values.ts';
import type { TradeStatus, ValidTrade } from './contract.ts';
import { formatContractDate } from './dates.ts';
import { toEpochSec, roundMoney } from '../values/units.ts';

/**
 * The assumptions behind every figure of a backtest (docs/backtest.md). They are returned
 * with the results (`performance.conventions`) so a reader knows what the numbers mean.
 */
export type BacktestConventions = {
  /** Account value before the first trade, in the instrument's currency. */
  initialCapital: number;
  /** Units of the underlying per lot: P&L = price change × lots × multiplier. */
  contractMultiplier: number;
  /** Commission per lot and side, charged at the open and at the close of every trade. */
  commissionPerLot: number;
  /** Annual risk-free rate as a fraction (0.02 = 2 %), used by the Sharpe ratio. */
  riskFreeRate: number;
  /** Calendar days per year, used to annualise (annual return, bars per year). */
  daysPerYear: number;
  /**
   * Shortest span of data, in calendar days, whose figures are annualised. Scaling a few
   * hours or days to a year turns noise into absurd figures, so below it `annual_return`
   * and `sharpe_ratio` are withheld (null).
   */
  minAnnualiseDays: number;
  currency: string;
};

export const DEFAULT_BACKTEST_CONVENTIONS: BacktestConventions = {
  initialCapital: 100_000,
  contractMultiplier: 1,
  commissionPerLot: 0,
  riskFreeRate: 0,
  daysPerYear: 365,
  minAnnualiseDays: 30,
  currency: 'USD',
};

/** Most points of `performance.equity_curve` (evenly spaced bars, first and last kept). */
export const MAX_EQUITY_POINTS = 1000;

/** What the metrics need of a bar: its start (UTC ms) and close. */
export type MetricsBar = { time: number; close: number };

/** A trade as the API returns it: the strategy's record plus the figures our code computed. */
export type Deal = {
  open_date: string;
  /** null while the trade is open at the end of the data. */
  close_date: string | null;
  open_price: number;
  /** The record's close price; for an open trade the last bar's close it is valued at. */
  close_price: number;
  /** Positive buy, negative sell. */
  lots: number;
  status: TradeStatus;
  /** (close − open) × lots × multiplier − commission, 2 decimals; computed, never trusted. */
  profit: number;
  /** Commission of both sides (an open trade is valued as if closed at the last close). */
  commission: number;
  /** Start of the opening bar, epoch seconds (the chart's marker time). */
  start: number;
  /** Start of the closing bar, epoch seconds; null while open. */
  end: number | null;
  /** |lots|. */
  qty: number;
};

/** The spec's Chinese performance keys, by meaning. */
export const PERFORMANCE_KEYS = {
  symbol: '合约',
  period: '周期',
  startTime: '开始时间',
  endTime: '结束时间',
  tradeCount: '交易次数',
  winRate: '胜率',
  profitLossRatio: '盈亏比',
  totalProfit: '总盈利',
  totalLoss: '总亏损',
  netProfit: '净利润',
  maxPositions: '最大持仓',
  averageProfit: '平均每笔盈利',
} as const;

/**
 * Performance of one run. Money in the instrument currency with 2 decimals; rates and
 * fractions (win rate, returns, drawdown) as fractions with 6 decimals (0.123456 = 12.3456 %);
 * ratios with 4 decimals. null means "not defined" (a division by zero), never zero.
 */
export type Performance = {
  合约: string;
  周期: string;
  开始时间: string;
  结束时间: string;
  交易次数: number;
  胜率: number;
  盈亏比: number | null;
  总盈利: number;
  总亏损: number;
  净利润: number;
  最大持仓: number;
  平均每笔盈利: number;
  profit_rate: number;
  annual_return: number | null;
  max_drawdown: number;
  max_drawdown_amount: number;
  win_rate: number;
  sharpe_ratio: number | null;
  profit_factor: number | null;
  expectancy: number;
  winning_trades: number;
  losing_trades: number;
  open_trades: number;
  commission_total: number;
  initial_capital: number;
  final_equity: number;
  bar_count: number;
  /** Points [date, equity] of the mark-to-market equity at bar closes. */
  equity_curve: [string, number][];
  conventions: {
    initial_capital: number;
    contract_multiplier: number;
    commission_per_lot: number;
    risk_free_rate: number;
    days_per_year: number;
    /** Shortest span of data (calendar days) whose figures are annualised. */
    min_annualise_days: number;
    currency: string;
    /** Bars per year measured from the data, used to annualise the Sharpe ratio. */
    bars_per_year: number | null;
    /** How trades still open at the end are valued. */
    open_trades_valued_at: 'last_close';
  };
};

export type BacktestInput = {
  bars: readonly MetricsBar[];
  trades: readonly ValidTrade[];
  symbol: string;
  period: string;
  conventions?: BacktestConventions;
};

const fraction = (value: number) => roundTo(value, 6);
const ratio = (value: number) => roundTo(value, 4);

/**
 * Deals and performance of a run from the validated trades and the bars (pure). Trades still
 * open at the end are valued at the last close, commission of both sides included. Bars
 * must be ascending; trades must come from `validateTradeRecords` on the same bars.
 */
export function computeBacktest(input: BacktestInput): { deals: Deal[]; performance: Performance } {
  const { deals, performance } = backtestFigures(input, true);
  return { deals, performance };
}

/**
 * `computeBacktest` with the unrounded equity at every bar close (`equityCurve`'s values)
 * besides; without `sampled`, the performance's `equity_curve` is left empty (an
 * optimisation's trial keeps its per-bar returns, not the dated points), every other figure
 * the same.
 */
export function backtestFigures(
  input: BacktestInput,
  sampled: boolean,
): { deals: Deal[]; performance: Performance; curve: Float64Array } {
  const c = input.conventions ?? DEFAULT_BACKTEST_CONVENTIONS;
  const { bars, trades } = input;
  const lastIndex = bars.length - 1;
  const lastClose = bars[lastIndex]?.close ?? 0;

  // A deal settles by the paper-trading engine's P&L and commission rules (each to cents);
  // its commission covers both sides (open and close) of its lots.
  const terms: ContractTerms = { volume_multiple: c.contractMultiplier, margin_ratio_by_money: 0 };
  const deals = trades.map((trade): Deal => {
    const closePrice = trade.closePrice ?? lastClose;
    const side = trade.lots < 0 ? 'sell' : 'buy';
    const lots = Math.abs(trade.lots);
    const commission = commissionFor(2 * lots, c.commissionPerLot);
    const gross = profitLoss(side, trade.openPrice, closePrice, lots, terms);
    return {
      open_date: formatContractDate(trade.openTime),
      close_date: trade.closeTime === null ? null : formatContractDate(trade.closeTime),
      open_price: trade.openPrice,
      close_price: closePrice,
      lots: trade.lots,
      status: trade.status,
      profit: roundMoney(gross - commission),
      commission: roundMoney(commission),
      start: toEpochSec(bars[trade.openIndex]?.time ?? trade.openTime),
      end:
        trade.closeIndex === null
          ? null
          : toEpochSec(bars[trade.closeIndex]?.time ?? trade.openTime),
      qty: Math.abs(trade.lots),
    };
  });

  // the deals' sums in one loop, each added in the deals' order (as a sum of its own list)
  let totalWins = 0;
  let winCount = 0;
  let totalLosses = 0;
  let lossCount = 0;
  let net = 0;
  let openTrades = 0;
  let commissions = 0;
  for (const deal of deals) {
    const p = deal.profit;
    if (p > 0) {
      totalWins += p;
      winCount += 1;
    } else if (p < 0) {
      totalLosses += p;
      lossCount += 1;
    }
    net += p;
    commissions += deal.commission;
    if (deal.status === 'NOT') openTrades += 1;
  }
  const totalProfit = roundMoney(totalWins);
  const totalLoss = roundMoney(totalLosses);
  const netProfit = roundMoney(net);
  const count = deals.length;
  const averageProfit = count > 0 ? roundMoney(netProfit / count) : 0;
  const winRate = count > 0 ? fraction(winCount / count) : 0;
  const averageWin = winCount > 0 ? totalProfit / winCount : 0;
  const averageLoss = lossCount > 0 ? -totalLoss / lossCount : 0;

  const finalEquity = roundMoney(c.initialCapital + netProfit);
  const firstTime = bars[0]?.time ?? 0;
  const lastTime = bars[lastIndex]?.time ?? 0;
  const years = (lastTime - firstTime) / (c.daysPerYear * DAY_MS);
  const barsPerYear = years > 0 && bars.length > 1 ? (bars.length - 1) / years : null;
  // Annualised figures (annual return, Sharpe ratio) of a short span are noise scaled up.
  const minYears = c.minAnnualiseDays / c.daysPerYear;
  const figures = curveFigures(bars, trades, c);
  const drawdown = figures.drawdown;

  const performance: Performance = {
    合约: input.symbol,
    周期: input.period,
    开始时间: bars.length > 0 ? formatContractDate(firstTime) : '',
    结束时间: bars.length > 0 ? formatContractDate(lastTime) : '',
    交易次数: count,
    胜率: winRate,
    盈亏比: lossCount === 0 ? null : ratio(averageWin / averageLoss),
    总盈利: totalProfit,
    总亏损: totalLoss,
    净利润: netProfit,
    最大持仓: figures.maxPositions,
    平均每笔盈利: averageProfit,
    profit_rate: fraction(netProfit / c.initialCapital),
    annual_return: annualReturn(c.initialCapital, finalEquity, years, minYears),
    max_drawdown: fraction(drawdown.fraction),
    max_drawdown_amount: roundMoney(drawdown.amount),
    win_rate: winRate,
    sharpe_ratio:
      years >= minYears ? sharpeOfReturns(figures.returns, barsPerYear, c.riskFreeRate) : null,
    profit_factor: lossCount === 0 ? null : ratio(totalProfit / -totalLoss),
    expectancy: averageProfit,
    winning_trades: winCount,
    losing_trades: lossCount,
    open_trades: openTrades,
    commission_total: roundMoney(commissions),
    initial_capital: c.initialCapital,
    final_equity: finalEquity,
    bar_count: bars.length,
    equity_curve: sampled ? sampleCurve(bars, figures.curve) : [],
    conventions: {
      initial_capital: c.initialCapital,
      contract_multiplier: c.contractMultiplier,
      commission_per_lot: c.commissionPerLot,
      risk_free_rate: c.riskFreeRate,
      days_per_year: c.daysPerYear,
      min_annualise_days: c.minAnnualiseDays,
      currency: c.currency,
      bars_per_year: barsPerYear === null ? null : ratio(barsPerYear),
      open_trades_valued_at: 'last_close',
    },
  };
  return { deals, performance, curve: figures.curve };
}

/**
 * Equity at every bar close (unrounded): capital + realised P&L − commission paid +
 * open trades marked at the close. A trade's P&L is realised in its closing bar; a trade
 * still open at the end counts as closed at the last close, in the last bar.
 */
export function equityCurve(
  bars: readonly MetricsBar[],
  trades: readonly ValidTrade[],
  c: BacktestConventions,
): number[] {
  const n = bars.length;
  if (n === 0) return [];
  const last = n - 1;
  const lastClose = bars[last]?.close ?? 0;
  // per bar: realised P&L and commission, and changes of the open exposure
  const realised = new Float64Array(n);
  const exposure = new Float64Array(n + 1); // Σ lots × multiplier of open trades
  const cost = new Float64Array(n + 1); // Σ open price × lots × multiplier of open trades
  for (const t of trades) {
    const close = t.closeIndex ?? last;
    const closePrice = t.closePrice ?? lastClose;
    const size = t.lots * c.contractMultiplier;
    const fee = c.commissionPerLot * Math.abs(t.lots);
    realised[t.openIndex] = (realised[t.openIndex] ?? 0) - fee;
    realised[close] = (realised[close] ?? 0) + (closePrice - t.openPrice) * size - fee;
    if (close > t.openIndex) {
      exposure[t.openIndex] = (exposure[t.openIndex] ?? 0) + size;
      exposure[close] = (exposure[close] ?? 0) - size;
      cost[t.openIndex] = (cost[t.openIndex] ?? 0) + t.openPrice * size;
      cost[close] = (cost[close] ?? 0) - t.openPrice * size;
    }
  }
  const curve = new Array<number>(n);
  let cash = c.initialCapital;
  let openSize = 0;
  let openCost = 0;
  for (let i = 0; i < n; i++) {
    cash += realised[i] ?? 0;
    openSize += exposure[i] ?? 0;
    openCost += cost[i] ?? 0;
    curve[i] = cash + openSize * (bars[i]?.close ?? 0) - openCost;
  }
  return curve;
}

/**
 * Largest fall from a running peak, as a fraction of the peak and as an amount. The peak
 * starts at `start` (the initial capital: a loss from the first bar is a drawdown too).
 */
export function maxDrawdown(
  curve: readonly number[],
  start = Number.NEGATIVE_INFINITY,
): { fraction: number; amount: number } {
  let peak = start;
  let worstFraction = 0;
  let worstAmount = 0;
  for (const equity of curve) {
    if (equity > peak) peak = equity;
    const fall = peak - equity;
    if (fall > worstAmount) worstAmount = fall;
    if (peak > 0 && fall / peak > worstFraction) worstFraction = fall / peak;
  }
  return { fraction: worstFraction, amount: worstAmount };
}

/**
 * Annualised Sharpe ratio of the per-bar returns of the equity curve:
 * (mean − rf / N) / sample std × √N with N bars per year. null with fewer than two
 * returns, an unknown N, or no variation.
 */
export function sharpeRatio(
  curve: readonly number[],
  barsPerYear: number | null,
  riskFreeRate: number,
): number | null {
  if (barsPerYear === null) return null;
  const returns: number[] = [];
  for (let i = 1; i < curve.length; i++) {
    const before = curve[i - 1] ?? 0;
    // after a wipe-out there is no return to speak of
    if (before > 0) returns.push((curve[i] ?? 0) / before - 1);
  }
  return sharpeOfReturns(returns, barsPerYear, riskFreeRate);
}

/** `sharpeRatio` of the per-bar returns already taken from the curve. */
function sharpeOfReturns(
  returns: ArrayLike<number>,
  barsPerYear: number | null,
  riskFreeRate: number,
): number | null {
  if (barsPerYear === null) return null;
  const n = returns.length;
  if (n < 2) return null;
  let total = 0;
  for (let i = 0; i < n; i++) total += returns[i] as number;
  const mean = total / n;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += ((returns[i] as number) - mean) ** 2;
  const variance = squares / (n - 1);
  const std = Math.sqrt(variance);
  if (!(std > TOLERANCE.zeroSpread)) return null;
  const value = ((mean - riskFreeRate / barsPerYear) / std) * Math.sqrt(barsPerYear);
  return Number.isFinite(value) ? ratio(value) : null;
}

/**
 * Compound annual growth over `years`; −1 when the account is wiped out; null when the span
 * is shorter than `minYears` (or zero): a short span's return is not annualised.
 */
export function annualReturn(
  initial: number,
  final: number,
  years: number,
  minYears = 0,
): number | null {
  if (!(years > 0) || years < minYears || !(initial > 0)) return null;
  if (final <= 0) return -1;
  const value = (final / initial) ** (1 / years) - 1;
  return Number.isFinite(value) ? fraction(value) : null;
}

/**
 * What `computeBacktest` takes from the bars, in one pass over them: the equity curve
 * (`equityCurve`), its largest drawdown from the initial capital (`maxDrawdown`), its per-bar
 * returns (as `sharpeRatio` takes them) and the most lots held at once (`maxPositions`). Each
 * figure is the same number, computed in the same order, as those functions give.
 */
export function curveFigures(
  bars: readonly MetricsBar[],
  trades: readonly ValidTrade[],
  c: BacktestConventions,
): {
  curve: Float64Array;
  drawdown: { fraction: number; amount: number };
  returns: Float64Array;
  maxPositions: number;
} {
  const n = bars.length;
  const curve = new Float64Array(n);
  if (n === 0) {
    return {
      curve,
      drawdown: { fraction: 0, amount: 0 },
      returns: new Float64Array(0),
      maxPositions: 0,
    };
  }
  const last = n - 1;
  const lastClose = bars[last]?.close ?? 0;
  const realised = new Float64Array(n);
  const exposure = new Float64Array(n + 1);
  const cost = new Float64Array(n + 1);
  const held = new Float64Array(n + 1);
  for (const t of trades) {
    const close = t.closeIndex ?? last;
    const closePrice = t.closePrice ?? lastClose;
    const size = t.lots * c.contractMultiplier;
    const fee = c.commissionPerLot * Math.abs(t.lots);
    realised[t.openIndex] = (realised[t.openIndex] ?? 0) - fee;
    realised[close] = (realised[close] ?? 0) + (closePrice - t.openPrice) * size - fee;
    if (close > t.openIndex) {
      exposure[t.openIndex] = (exposure[t.openIndex] ?? 0) + size;
      exposure[close] = (exposure[close] ?? 0) - size;
      cost[t.openIndex] = (cost[t.openIndex] ?? 0) + t.openPrice * size;
      cost[close] = (cost[close] ?? 0) - t.openPrice * size;
    }
    const lots = Math.abs(t.lots);
    held[t.openIndex] = (held[t.openIndex] ?? 0) + lots;
    if (t.closeIndex !== null) {
      const release = Math.max(t.closeIndex, t.openIndex + 1);
      held[release] = (held[release] ?? 0) - lots;
    }
  }
  const returns = new Float64Array(Math.max(0, n - 1));
  let returnCount = 0;
  let cash = c.initialCapital;
  let openSize = 0;
  let openCost = 0;
  let peak = c.initialCapital;
  let worstFraction = 0;
  let worstAmount = 0;
  let holding = 0;
  let most = 0;
  let before = 0;
  for (let i = 0; i < n; i++) {
    cash += realised[i] as number;
    openSize += exposure[i] as number;
    openCost += cost[i] as number;
    const equity = cash + openSize * (bars[i]?.close ?? 0) - openCost;
    curve[i] = equity;
    if (equity > peak) peak = equity;
    const fall = peak - equity;
    if (fall > worstAmount) worstAmount = fall;
    if (peak > 0 && fall / peak > worstFraction) worstFraction = fall / peak;
    if (i > 0 && before > 0) returns[returnCount++] = equity / before - 1;
    before = equity;
    holding += held[i] as number;
    if (holding > most) most = holding;
  }
  return {
    curve,
    drawdown: { fraction: worstFraction, amount: worstAmount },
    returns: returns.subarray(0, returnCount),
    maxPositions: roundTo(most, 6),
  };
}

/** Largest sum of |lots| held at once; a trade is held from its opening bar until its closing bar. */
export function maxPositions(barCount: number, trades: readonly ValidTrade[]): number {
  if (barCount === 0) return 0;
  const change = new Float64Array(barCount + 1);
  for (const t of trades) {
    const size = Math.abs(t.lots);
    change[t.openIndex] = (change[t.openIndex] ?? 0) + size;
    if (t.closeIndex !== null) {
      // a trade opened and closed in the same bar is held during that bar
      const release = Math.max(t.closeIndex, t.openIndex + 1);
      change[release] = (change[release] ?? 0) - size;
    }
  }
  let held = 0;
  let most = 0;
  for (let i = 0; i < barCount; i++) {
    held += change[i] ?? 0;
    if (held > most) most = held;
  }
  return roundTo(most, 6);
}

function sampleCurve(bars: readonly MetricsBar[], curve: ArrayLike<number>): [string, number][] {
  const n = curve.length;
  const points = Math.min(n, MAX_EQUITY_POINTS);
  const out: [string, number][] = [];
  for (let k = 0; k < points; k++) {
    const i = points === 1 ? n - 1 : Math.round((k * (n - 1)) / (points - 1));
    out.push([formatContractDate(bars[i]?.time ?? 0), roundMoney(curve[i] ?? 0)]);
  }
  return out;
}
