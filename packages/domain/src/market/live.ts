import type { Bar } from './bars.ts';
import { bucketStart, type Period } from './periods.ts';
import type { LivePriceMessage } from './schemas.ts';

/** `entry` of a live price message (FIX MDEntryType): the bid side and the offer side. */
export const ENTRY_BID = '0';
export const ENTRY_ASK = '1';

/**
 * A chart point derived from one live price message (spec section 3): `Time` in ISO form,
 * every price field the message's price, `Volume` its size, `Interest` 0.
 */
export type ChartPoint = {
  Time: string;
  Open: number;
  High: number;
  Low: number;
  Close: number;
  Volume: number;
  Interest: 0;
};

/** Price data of one symbol: bid, ask and the latest single price; `timestamp` epoch ms. */
export type PriceData = {
  bid: number | null;
  ask: number | null;
  last: number;
  timestamp: number;
};

/** What one accepted live message yields. */
export type LiveUpdate = { price: PriceData; point: ChartPoint };

/**
 * Derives bid, ask, last and a chart point from a live price message. Entry '0' sets the
 * bid, '1' the ask, the other side is kept from `previous`; `last` is the message's price.
 * Any other entry is ignored: null.
 */
export function deriveLiveUpdate(
  previous: PriceData | null | undefined,
  message: LivePriceMessage,
): LiveUpdate | null {
  if (message.entry !== ENTRY_BID && message.entry !== ENTRY_ASK) return null;
  const isBid = message.entry === ENTRY_BID;
  const price: PriceData = {
    bid: isBid ? message.price : (previous?.bid ?? null),
    ask: isBid ? (previous?.ask ?? null) : message.price,
    last: message.price,
    timestamp: message.tm,
  };
  const point: ChartPoint = {
    Time: new Date(message.tm).toISOString(),
    Open: message.price,
    High: message.price,
    Low: message.price,
    Close: message.price,
    Volume: message.size,
    Interest: 0,
  };
  return { price, point };
}

/** A trade tick as a chart consumes it: time epoch ms, price, traded size. */
export type Tick = { time: number; price: number; size: number };

/** Result of folding a tick into the newest bar. */
export type TickMerge =
  /** The tick belongs to the newest bar, which now has these values. */
  | { kind: 'update'; bar: Bar }
  /** The tick opened the next bar (the first bar when there was none). */
  | { kind: 'new'; bar: Bar }
  /** The tick is older than the newest bar: nothing changes. */
  | { kind: 'stale' };

/**
 * Folds a live tick into the newest bar of a `period` series (bar times in UTC ms, the
 * bucket start). A tick in the newest bar's bucket moves its high, low and close and adds
 * its size; a tick in a later bucket opens a new bar there at its price; an older tick is
 * stale.
 */
export function mergeTick(last: Bar | null, tick: Tick, period: Period): TickMerge {
  const start = bucketStart(period, tick.time);
  if (last === null || start > last.time) {
    return {
      kind: 'new',
      bar: {
        time: start,
        open: tick.price,
        high: tick.price,
        low: tick.price,
        close: tick.price,
        volume: tick.size,
      },
    };
  }
  if (start < last.time) return { kind: 'stale' };
  return {
    kind: 'update',
    bar: {
      time: last.time,
      open: last.open,
      high: Math.max(last.high, tick.price),
      low: Math.min(last.low, tick.price),
      close: tick.price,
      volume: roundVolume(last.volume + tick.size),
    },
  };
}

function roundVolume(volume: number): number {
  return Math.round(volume * 1e8) / 1e8;
}

/**
 * The symbols a quote cache call should ask for (spec section 5, Symbol cache): each name
 * trimmed, empty names and repeats dropped, and every symbol already cached or being
 * fetched skipped. Order of first appearance is kept.
 */
export function symbolsToFetch(
  requested: readonly string[],
  cached: ReadonlySet<string>,
  inFlight: ReadonlySet<string>,
): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of requested) {
    const symbol = raw.trim();
    if (!symbol || seen.has(symbol) || cached.has(symbol) || inFlight.has(symbol)) continue;
    seen.add(symbol);
    out.push(symbol);
  }
  return out;
}

/** The default instrument of a chart when none is asked for (spec section 2, /chart). */
export const DEFAULT_INSTRUMENT = 'BTCUSDT';

/**
 * Picks the chart's instrument among the groups' instrument ids: the asked id when it
 * exists, else `fallback` when it exists, else the first instrument of the first group
 * that has one; null when there are no instruments.
 */
export function pickInstrument(
  groups: readonly { children: readonly { id: string }[] }[],
  asked: string | null | undefined,
  fallback: string = DEFAULT_INSTRUMENT,
): string | null {
  const ids = new Set(groups.flatMap((g) => g.children.map((c) => c.id)));
  const wanted = asked?.trim();
  if (wanted && ids.has(wanted)) return wanted;
  if (ids.has(fallback)) return fallback;
  for (const group of groups) {
    const first = group.children[0];
    if (first) return first.id;
  }
  return null;
}
