import { z } from 'zod';
import { DEFAULT_TICK } from './price.ts';

/** Instrument type (spec section 3): 1 Spot/CFD/FX, 2 foreign futures, 3 domestic futures. */
export const SYMBOL_TYPES = { spot: 1, foreignFutures: 2, domesticFutures: 3 } as const;

/** The full instrument ('symbol') entity of the instrument list call (spec section 3). */
export const symbolSchema = z.object({
  symbol: z.string(),
  symbol_cn: z.string(),
  symbol_en: z.string(),
  symbol_type: z.number().int(),
  standard_lot: z.number(),
  volume_multiple: z.number(),
  margin_ratio_by_money: z.number(),
  currency: z.string(),
  min_price_tick: z.number(),
  quote_time: z.string(),
  trade_time: z.string(),
  is_trading: z.boolean(),
  vol_limit_max: z.number(),
  vol_limit_min: z.number(),
  max_limit_ov: z.number(),
  min_limit_ov: z.number(),
});
export type SymbolInfo = z.infer<typeof symbolSchema>;

/** Tick size of an instrument; the spec's default 0.01 when it is unknown or gives none. */
export function tickOfSymbol(info: SymbolInfo | undefined): number {
  return info && info.min_price_tick > 0 ? info.min_price_tick : DEFAULT_TICK;
}

/** A market of the instrument list, with its instruments. */
export const marketSchema = z.object({
  market_type: z.string(),
  market_name: z.string(),
  market_name_en: z.string(),
  lists: z.array(symbolSchema),
});
export type Market = z.infer<typeof marketSchema>;

/** Instrument groups as the groups call sends them: [id, name, code, [[id, name], …]]. */
export const instrumentGroupTupleSchema = z.tuple([
  z.number().int(),
  z.string(),
  z.string(),
  z.array(z.tuple([z.string(), z.string()])),
]);
export type InstrumentGroupTuple = z.infer<typeof instrumentGroupTupleSchema>;

/** A group as the client keeps it (spec section 3, Instrument group). */
export type InstrumentGroup = {
  id: number;
  code: string;
  name: string;
  children: SimpleInstrument[];
};

/** An instrument as the client's selector keeps it (spec section 3, Instrument simple). */
export type SimpleInstrument = {
  id: string;
  name: string;
  group: string;
  isNeedExtraTimeRange: boolean;
};

/**
 * Groups whose instruments trade in sessions, so a chart needs extra time range handling
 * (gaps outside the session). Derived from the group name, as the spec says.
 */
const SESSION_GROUP_WORDS = ['futures', 'shares', 'stock', 'indices', '期货', '股票', '指数'];

/** True when instruments of this group trade in sessions rather than around the clock. */
export function groupNeedsExtraTimeRange(groupName: string): boolean {
  const name = groupName.toLowerCase();
  return SESSION_GROUP_WORDS.some((word) => name.includes(word));
}

/** Turns the groups call's tuples into the client's groups. */
export function parseInstrumentGroups(tuples: readonly InstrumentGroupTuple[]): InstrumentGroup[] {
  return tuples.map(([id, name, code, children]) => ({
    id,
    name,
    code,
    children: children.map(([childId, childName]) => ({
      id: childId,
      name: childName,
      group: name,
      isNeedExtraTimeRange: groupNeedsExtraTimeRange(name),
    })),
  }));
}
