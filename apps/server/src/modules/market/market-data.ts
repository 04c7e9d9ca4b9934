import {
  DAY_MS,
  MarketSimulator,
  aggregateBars,
  bucketStart,
  canAggregate,
  isTradingAt,
  simulatedBars,
  type Bar,
  type Period,
  type SimQuote,
} from '@ct/domain';
import { CATALOGUE, INSTRUMENTS, type CatalogueInstrument } from './catalogue.ts';
import { loadShippedHistory } from './real-history.ts';

/** First day of simulated history of instruments without real history: enough for 500 months. */
export const SIMULATION_START_DAY = Date.UTC(1985, 0, 1);

type InstrumentMarket = {
  instrument: CatalogueInstrument;
  sim: MarketSimulator;
  real: { bars: Bar[]; resolution: Period } | null;
};

/**
 * Prices of every catalogue instrument: real shipped history where there is some, then
 * the deterministic simulation continuing from its last close.
 */
export class MarketData {
  private readonly markets = new Map<string, InstrumentMarket>();
  /** Quotes pinned by the test-only feed control (MARKET_TEST_CONTROL); empty in production. */
  private readonly pins = new Map<string, SimQuote>();

  constructor(readonly seed: number) {
    for (const market of CATALOGUE) {
      for (const instrument of market.instruments) {
        this.markets.set(instrument.symbol, this.build(instrument));
      }
    }
  }

  private build(instrument: CatalogueInstrument): InstrumentMarket {
    let real: InstrumentMarket['real'] = null;
    let startDay = SIMULATION_START_DAY;
    let startPrice: number | undefined;
    if (instrument.history) {
      const bars = loadShippedHistory(instrument.history.file);
      const last = bars.at(-1);
      if (last) {
        real = { bars, resolution: instrument.history.resolution };
        startDay = Math.floor(last.time / DAY_MS) * DAY_MS + DAY_MS;
        startPrice = last.close;
      }
    }
    const sim = new MarketSimulator({
      symbol: instrument.symbol,
      seed: this.seed,
      tick: instrument.min_price_tick,
      basePrice: startPrice ?? instrument.sim.basePrice,
      startPrice,
      annualVolatility: instrument.sim.annualVolatility,
      spreadTicks: instrument.sim.spreadTicks,
      calendar: instrument.calendar,
      dailyVolume: instrument.sim.dailyVolume,
      ticksPerMinute: instrument.sim.ticksPerMinute,
      startDay,
    });
    return { instrument, sim, real };
  }

  has(symbol: string): boolean {
    return this.markets.has(symbol);
  }

  symbols(): string[] {
    return [...this.markets.keys()];
  }

  simulator(symbol: string): MarketSimulator | null {
    return this.markets.get(symbol)?.sim ?? null;
  }

  instrument(symbol: string): CatalogueInstrument | null {
    return INSTRUMENTS.get(symbol) ?? null;
  }

  isTrading(symbol: string, now: number): boolean {
    const instrument = INSTRUMENTS.get(symbol);
    return instrument ? isTradingAt(instrument.calendar, now) : false;
  }

  /**
   * Pins the symbol's quote at `now` (test-only feed control): until released it is the
   * symbol's live and last quote, a tick like the simulator's. Each pin is a new tick, so
   * its time is after the previous pin's even within one millisecond.
   */
  pin(symbol: string, bid: number, ask: number, now: number): SimQuote {
    const previous = this.pins.get(symbol);
    const time = previous ? Math.max(now, previous.time + 1) : now;
    const quote: SimQuote = { time, bid, ask, size: 0 };
    this.pins.set(symbol, quote);
    return quote;
  }

  /** Releases a pin: the simulation quotes the symbol again. False when none was pinned. */
  unpin(symbol: string): boolean {
    return this.pins.delete(symbol);
  }

  /** The live quote at `now`; null when the market is closed or the symbol unknown. */
  quoteAt(symbol: string, now: number): SimQuote | null {
    const live = this.markets.get(symbol)?.sim.quoteAt(now) ?? null;
    // a pinned quote moves nothing while the market is closed, like any tick
    return live && (this.pins.get(symbol) ?? live);
  }

  /** The last quote at or before `now`, also while the market is closed. */
  lastQuoteAt(symbol: string, now: number): SimQuote | null {
    const pinned = this.pins.get(symbol);
    if (pinned && this.markets.has(symbol)) return pinned;
    return this.markets.get(symbol)?.sim.lastQuoteAt(now) ?? null;
  }

  /**
   * Up to `limit` bars of `period` starting before `endBefore` (UTC ms), ascending; the
   * newest may be in progress at `now`. Real history is used for periods at least as
   * coarse as its resolution; a bucket holding both real and simulated bars is merged.
   */
  bars(symbol: string, period: Period, endBefore: number, limit: number, now: number): Bar[] {
    const bars = this.marketBars(symbol, period, endBefore, limit, now);
    return this.withPin(symbol, period, bars, now);
  }

  /**
   * A pinned quote enters the bar in progress as a tick would: the bar closes at its bid
   * and its range includes it (kline prices are bids). Earlier bars stay simulated.
   */
  private withPin(symbol: string, period: Period, bars: Bar[], now: number): Bar[] {
    const pin = this.pins.get(symbol);
    const last = bars.at(-1);
    if (!pin || !last || last.time !== bucketStart(period, now)) return bars;
    const high = Math.max(last.high, pin.bid);
    const low = Math.min(last.low, pin.bid);
    return [...bars.slice(0, -1), { ...last, high, low, close: pin.bid }];
  }

  private marketBars(
    symbol: string,
    period: Period,
    endBefore: number,
    limit: number,
    now: number,
  ): Bar[] {
    const market = this.markets.get(symbol);
    if (!market) return [];
    const simulated = simulatedBars(market.sim, period, endBefore, limit, now);
    const real = market.real;
    if (simulated.length >= limit || !real || !canAggregate(real.resolution, period)) {
      return simulated;
    }
    const realBefore = aggregateBars(
      real.bars.filter((bar) => bar.time < endBefore),
      period,
    );
    // the real bucket that the first simulated bar continues is merged with it
    const merged = aggregateBars([...realBefore, ...simulated], period).filter(
      (bar) => bar.time < endBefore,
    );
    return merged.slice(Math.max(0, merged.length - limit));
  }
}
