import type { InstrumentGroupTuple, Market, SymbolInfo } from '@ct/domain';
import type { SessionCalendar } from '@ct/domain';
import { CATALOGUE, type CatalogueInstrument } from './catalogue.ts';

/** Trading hours of each calendar, as the symbol entity's quote_time and trade_time say them. */
const HOURS: Record<SessionCalendar, string> = {
  '24x7': 'Mon-Sun 00:00-24:00 UTC',
  fx: 'Sun 17:00 - Fri 17:00 America/New_York',
  cme: 'Sun-Fri 18:00-17:00 America/New_York (break 17:00-18:00)',
  'us-equity': 'Mon-Fri 09:30-16:00 America/New_York',
  'eu-equity': 'Mon-Fri 09:00-17:30 Europe/Berlin',
  'cn-futures': 'Mon-Fri 09:00-10:15 10:30-11:30 13:30-15:00 21:00-23:00 Asia/Shanghai',
};

/** The full symbol entity of an instrument at `now` (is_trading follows its session). */
export function symbolInfo(instrument: CatalogueInstrument, isTrading: boolean): SymbolInfo {
  return {
    symbol: instrument.symbol,
    symbol_cn: instrument.symbol_cn,
    symbol_en: instrument.symbol_en,
    symbol_type: instrument.symbol_type,
    standard_lot: 1,
    volume_multiple: instrument.volume_multiple,
    margin_ratio_by_money: instrument.margin_ratio_by_money,
    currency: instrument.currency,
    min_price_tick: instrument.min_price_tick,
    quote_time: HOURS[instrument.calendar],
    trade_time: HOURS[instrument.calendar],
    is_trading: isTrading,
    vol_limit_max: instrument.vol_limit_max,
    vol_limit_min: instrument.vol_limit_min,
    max_limit_ov: instrument.max_limit_ov,
    min_limit_ov: instrument.min_limit_ov,
  };
}

/** Every market with its instruments' full entities. */
export function symbolList(isTrading: (symbol: string) => boolean): Market[] {
  return CATALOGUE.map((market) => ({
    market_type: market.market_type,
    market_name: market.market_name,
    market_name_en: market.market_name_en,
    lists: market.instruments.map((i) => symbolInfo(i, isTrading(i.symbol))),
  }));
}

/** Instrument groups as tuples: [id, name, code, [[symbol, name], …]]. */
export function instrumentGroups(): InstrumentGroupTuple[] {
  return CATALOGUE.map((market) => [
    market.id,
    market.market_name_en,
    market.market_type,
    market.instruments.map((i): [string, string] => [i.symbol, i.symbol_en]),
  ]);
}

/** Group id of a user's imported instruments in the groups call. */
export const IMPORTED_GROUP_ID = 100;

/** The group of a user's own imported instruments. */
export function importedGroup(instruments: [string, string][]): InstrumentGroupTuple {
  return [IMPORTED_GROUP_ID, 'My Data', 'imported', instruments];
}
