import type { LivePriceMessage, SimQuote } from '@ct/domain';
import type { Broker } from '../gateway/broker.ts';
import type { MarketData } from './market-data.ts';

/** A new quote of one instrument, as the trading engine and the gateway receive it. */
export type QuoteEvent = { symbol: string; quote: SimQuote };
export type QuoteListener = (event: QuoteEvent) => void;
/** Where the active feed hands each new quote before publishing it (the shared quote cache). */
export type QuoteSink = (symbol: string, quote: SimQuote) => void;

/** The live channel of an instrument. */
export const publicChannel = (symbol: string) => `public:${symbol}`;

/** The two live price messages of a quote: the bid (entry '0') and the offer (entry '1'). */
export function priceMessages(quote: SimQuote): [LivePriceMessage, LivePriceMessage] {
  return [
    { price: quote.bid, size: quote.size, tm: quote.time, entry: '0', strike: 0 },
    { price: quote.ask, size: quote.size, tm: quote.time, entry: '1', strike: 0 },
  ];
}

/**
 * The live feed: on every poll it asks the market data for each instrument's quote at the
 * current time and publishes the quotes that are new since the last poll, so a tick is
 * published once however often the feed polls, and nothing is published while a market
 * is closed.
 */
export class MarketFeed {
  private readonly latest = new Map<string, SimQuote>();
  private readonly listeners = new Set<QuoteListener>();
  private timer: NodeJS.Timeout | null = null;
  private sink: QuoteSink | null = null;

  constructor(
    private readonly market: MarketData,
    private readonly broker: Broker,
    private readonly now: () => number = Date.now,
    private readonly pollMs = 200,
  ) {}

  start(): void {
    if (this.timer) return;
    this.poll();
    this.timer = setInterval(() => this.poll(), this.pollMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** True while this process's feed polls (it is the active feed). */
  get running(): boolean {
    return this.timer !== null;
  }

  /**
   * Hands every new quote to `sink` before it is published (modules/cluster: the quote
   * cache other nodes read), so a node has the quote before its clients see the tick.
   */
  shareTo(sink: QuoteSink | null): void {
    this.sink = sink;
  }

  /**
   * Takes a quote the active feed of another process published (a node whose feed does
   * not run): it becomes this node's latest quote, which orders fill at, without
   * publishing it or waking the listeners. An older quote than the one held is ignored;
   * ignored too while this feed runs itself.
   */
  adopt(symbol: string, quote: SimQuote): void {
    if (this.timer) return;
    const held = this.latest.get(symbol);
    if (held && held.time > quote.time) return;
    this.latest.set(symbol, quote);
  }

  /** Listens to every new quote (trigger engine, live bars); returns the unsubscribe. */
  onQuote(listener: QuoteListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The newest published quote of a symbol, if the feed has published one. */
  latestQuote(symbol: string): SimQuote | null {
    return this.latest.get(symbol) ?? null;
  }

  /**
   * Publishes the newest quote of a symbol once more, stamped `time`, on its public channel
   * only (the load control of the performance page): the engine, the listeners and the
   * quote orders fill at are unchanged. False when the feed has no quote of it yet.
   */
  republish(symbol: string, time: number): boolean {
    const quote = this.latest.get(symbol);
    if (!quote) return false;
    const channel = publicChannel(symbol);
    for (const message of priceMessages({ ...quote, time })) this.broker.publish(channel, message);
    return true;
  }

  /** Publishes every quote that is new at the current time. */
  poll(): void {
    const now = this.now();
    for (const symbol of this.market.symbols()) this.publishNew(symbol, now);
  }

  /**
   * Publishes the symbol's quote at the current time if it is new: what a poll does for
   * one instrument (the test-only feed control calls it after pinning a quote).
   */
  pollSymbol(symbol: string): void {
    this.publishNew(symbol, this.now());
  }

  private publishNew(symbol: string, now: number): void {
    const quote = this.market.quoteAt(symbol, now);
    if (!quote || sameTick(this.latest.get(symbol), quote)) return;
    this.latest.set(symbol, quote);
    this.sink?.(symbol, quote);
    const channel = publicChannel(symbol);
    for (const message of priceMessages(quote)) this.broker.publish(channel, message);
    for (const listener of this.listeners) listener({ symbol, quote });
  }
}

/** The same tick: simulated ticks are told apart by time, a pinned quote also by prices. */
function sameTick(a: SimQuote | undefined, b: SimQuote): boolean {
  return a !== undefined && a.time === b.time && a.bid === b.bid && a.ask === b.ask;
}
