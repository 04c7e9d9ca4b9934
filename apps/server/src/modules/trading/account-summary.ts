import {
  ACCOUNT_CURRENCY,
  CMD,
  isMarginLevelLow,
  type AccountExposure,
  type AccountSummary,
} from '@ct/domain';
import type { TraderRow } from '../../db/schema.ts';
import { accountInit } from './accounts.ts';
import type { TradingContext } from './context.ts';
import { figuresMarket, riskOf } from './margin.ts';
import { conversionQuotes } from './pricing.ts';
import { readAccount } from './store/accounts.ts';
import { countWorkingPendings } from './store/pendings.ts';
import { accountExposure, listOpenPositions } from './store/positions.ts';

/** The margin level (percent) below which an account is warned, unless configured. */
export const DEFAULT_MARGIN_WARNING_LEVEL = 100;

/**
 * Balance, equity, margin and P&L of the account in its currency (USD), by the rule the
 * margin check uses (margin.ts riskOf, domain accountFigures), with the exposure, quotes
 * and rates they were taken from, so a browser recomputes the same figures from live
 * quotes until the next answer; and whether the margin level is below `marginWarningLevel`.
 */
export async function accountSummary(
  ctx: TradingContext,
  trader: TraderRow,
  options: { marginWarningLevel: number },
): Promise<AccountSummary> {
  const nowMs = ctx.now();
  const account = await readAccount(ctx.db, trader.uuid, accountInit(trader, nowMs));
  const [exposure, positions, pendingOrders] = await Promise.all([
    accountExposure(ctx.db, trader.uuid),
    listOpenPositions(ctx.db, trader.uuid),
    countWorkingPendings(ctx.db, trader.uuid),
  ]);
  const conversion = conversionQuotes(ctx.market, nowMs);
  const risk = riskOf(ctx, account, exposure, nowMs, conversion);
  const market = figuresMarket(ctx, nowMs, conversion);
  const lines: AccountExposure[] = [];
  for (const group of exposure) {
    const terms = ctx.market.instrument(group.symbol);
    if (!terms || !(group.volume > 0)) continue; // counts for nothing in the figures either
    const quote = market.quote(group.symbol);
    lines.push({
      symbol: group.symbol,
      cmd: group.cmd === CMD.sell ? CMD.sell : CMD.buy,
      volume: group.volume,
      notional: group.notional,
      currency: terms.currency,
      volume_multiple: terms.volume_multiple,
      margin_ratio_by_money: terms.margin_ratio_by_money,
      bid: quote?.bid ?? null,
      ask: quote?.ask ?? null,
    });
  }
  return {
    uuid: account.uuid,
    currency: account.currency || ACCOUNT_CURRENCY,
    startingBalance: account.startingBalance,
    balance: risk.balance,
    equity: risk.equity,
    usedMargin: risk.usedMargin,
    freeMargin: risk.freeMargin,
    marginLevel: risk.marginLevel,
    realizedPnl: account.realizedPnl,
    unrealizedPnl: risk.unrealizedPnl,
    commissionPaid: account.commissionPaid,
    openPositions: positions.length,
    pendingOrders,
    exposure: lines,
    conversion: { USDJPY: conversion.USDJPY ?? null, EURUSD: conversion.EURUSD ?? null },
    marginWarningLevel: options.marginWarningLevel,
    marginWarning: isMarginLevelLow(risk.marginLevel, options.marginWarningLevel),
    at: nowMs,
  };
}
