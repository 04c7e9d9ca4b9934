import {
  TRADING_MESSAGES,
  accountFigures,
  commissionFor,
  requiredMargin,
  roundMoney,
  sideOfCmd,
  type AccountFigures,
  type ConversionQuotes,
  type ExposureLine,
  type FiguresMarket,
  type Lots,
  type Of,
  type Price,
  type Money,
} from '@ct/domain';
import type { Db } from '../../db/types.ts';
import type { CatalogueInstrument } from '../market/catalogue.ts';
import type { TradingContext } from './context.ts';
import { conversionQuotes, markQuote, toUsd } from './pricing.ts';
import type { Account } from './store/accounts.ts';
import { accountExposure, type Exposure } from './store/positions.ts';

/** An account's money at a moment, in the account currency (USD): the domain's figures. */
export type Risk = AccountFigures;

/**
 * The market the account's figures are taken at now: each instrument's catalogue terms,
 * its mark quote (the live quote, the last one while its market is closed) and the
 * conversion rates `quotes`.
 */
export function figuresMarket(
  ctx: TradingContext,
  nowMs: number,
  quotes: ConversionQuotes,
): FiguresMarket {
  return {
    terms: (symbol) => ctx.market.instrument(symbol),
    quote: (symbol) => markQuote(ctx.market, symbol, nowMs),
    conversion: quotes,
  };
}

/** An account's open lots per symbol and side, as the domain's exposure lines. */
export function exposureLines(exposure: readonly Exposure[]): ExposureLine[] {
  return exposure.map((group) => ({
    symbol: group.symbol,
    side: sideOfCmd(group.cmd),
    volume: group.volume,
    notional: group.notional,
  }));
}

/**
 * Equity and margin of an account now (domain accountFigures): open positions valued at
 * the current quotes (the last quote while a market is closed), margin of each at its open
 * price, both converted to USD at the current rates. Positions are summed per symbol and
 * side in SQL, so the cost does not grow with the number of positions' rows sent over.
 */
export async function accountRisk(
  tx: Db,
  ctx: TradingContext,
  account: Account,
  nowMs: number,
  quotes: ConversionQuotes = conversionQuotes(ctx.market, nowMs),
): Promise<Risk> {
  return riskOf(ctx, account, await accountExposure(tx, account.uuid), nowMs, quotes);
}

/** Equity and margin of an account with `exposure` (its open lots), as accountRisk. */
export function riskOf(
  ctx: TradingContext,
  account: Account,
  exposure: readonly Exposure[],
  nowMs: number,
  quotes: ConversionQuotes,
): Risk {
  return accountFigures(
    account.balance,
    exposureLines(exposure),
    figuresMarket(ctx, nowMs, quotes),
  );
}

/** What opening `volume` at `price` takes from free margin: its margin and open commission, USD. */
export function orderCost(
  ctx: TradingContext,
  instrument: CatalogueInstrument,
  price: Of<Price>,
  volume: Of<Lots>,
  nowMs: number,
  quotes: ConversionQuotes,
): Money {
  const margin = toUsd(
    ctx.market,
    nowMs,
    requiredMargin(price, volume, instrument),
    instrument.currency,
    quotes,
  );
  const commission = toUsd(
    ctx.market,
    nowMs,
    commissionFor(volume, instrument.commission_per_lot),
    instrument.currency,
    quotes,
  );
  return roundMoney(margin + commission);
}

/**
 * The margin check of a new position: null when the account's free margin covers the
 * margin and open commission of `volume` at `price`, else the refusal message.
 */
export async function marginShortfall(
  scope: { account: Account; exposure(): Promise<Exposure[]> },
  ctx: TradingContext,
  instrument: CatalogueInstrument,
  order: { price: Of<Price>; volume: Of<Lots> },
  nowMs: number,
  quotes: ConversionQuotes,
): Promise<string | null> {
  const lines = exposureLines(await scope.exposure());
  return marginShortfallOf(ctx, scope.account, lines, instrument, order, nowMs, quotes);
}

/** marginShortfall of an account with `balance` and the open lots `exposure`. */
export function marginShortfallOf(
  ctx: TradingContext,
  account: Pick<Account, 'balance' | 'currency'>,
  exposure: readonly ExposureLine[],
  instrument: CatalogueInstrument,
  order: { price: Of<Price>; volume: Of<Lots> },
  nowMs: number,
  quotes: ConversionQuotes,
): string | null {
  const risk = accountFigures(account.balance, exposure, figuresMarket(ctx, nowMs, quotes));
  const cost = orderCost(ctx, instrument, order.price, order.volume, nowMs, quotes);
  if (cost <= risk.freeMargin) return null;
  return TRADING_MESSAGES.insufficientMargin(
    cost.toFixed(2),
    risk.freeMargin.toFixed(2),
    account.currency,
  );
}
