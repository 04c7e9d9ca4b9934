import {
  deriveLiveUpdate,
  ENTRY_BID,
  livePriceMessageSchema,
  SHARED_ACTIONS,
  type ChartPoint,
  type LivePriceMessage,
  type PriceData,
  type Tick,
} from '@ct/domain';
import type { Centrifuge, Subscription } from 'centrifuge';
import { UpdateBatcher } from './batcher';
import { isChildFrame, onLiveClient } from './connection';
import { postFrameMessage } from './frameBridge';
import { applyRealtimeQuotes, clearQuote, fetchQuoteCache, refreshQuoteCache } from './quotes';
import { INSTRUMENT_CACHE_CAP, throttleSettings } from './settings';
import { RefCountedSubscriptions, type ChannelTransport } from './subscriptions';
import { createThrottle } from './throttle';

/** The live channel of an instrument (spec section 7). */
export const channelOf = (symbol: string) => `public:${symbol}`;

type Incoming = { symbol: string; message: LivePriceMessage };
export type TickListener = (ticks: readonly Tick[]) => void;
export type MessageListener = (message: LivePriceMessage) => void;

/** Counters for the performance panel; read them by polling, they are not reactive. */
export const liveStats = {
  /** Valid live messages taken in. */
  messages: 0,
  batches: 0,
  lastBatchSize: 0,
  /** Items of all batches (divided by `batches`: the mean batch size). */
  batchedItems: 0,
  maxBatchSize: 0,
  /** Messages of no known shape or entry. */
  ignored: 0,
  /** Batched messages of a symbol nobody watched any more. */
  dropped: 0,
  /** Quote store writes, one per symbol and throttle run: messages minus these coalesced. */
  quotesApplied: 0,
  quoteFlushes: 0,
  /** Ticks handed to the charts. */
  chartTicks: 0,
};

// Newest price data per symbol, unthrottled: the base for deriving the next message.
const latest = new Map<string, PriceData>();
const points = new Map<string, ChartPoint[]>();
const pendingQuotes = new Map<string, PriceData>();
const tickListeners = new Map<string, Set<TickListener>>();
const messageListeners = new Map<string, Set<MessageListener>>();

const quoteThrottle = createThrottle(
  () => {
    const updates = new Map(pendingQuotes);
    pendingQuotes.clear();
    liveStats.quotesApplied += updates.size;
    liveStats.quoteFlushes += 1;
    applyRealtimeQuotes(updates);
  },
  () => throttleSettings().priceUpdateDelay,
);

function processBatch(items: Incoming[]): void {
  liveStats.batches += 1;
  liveStats.lastBatchSize = items.length;
  liveStats.batchedItems += items.length;
  liveStats.maxBatchSize = Math.max(liveStats.maxBatchSize, items.length);
  const ticks = new Map<string, Tick[]>();
  for (const { symbol, message } of items) {
    if (registry.count(symbol) === 0) {
      liveStats.dropped += 1; // nobody watches it any more
      continue;
    }
    const update = deriveLiveUpdate(latest.get(symbol), message);
    if (!update) {
      liveStats.ignored += 1;
      continue;
    }
    latest.set(symbol, update.price);
    pendingQuotes.set(symbol, update.price);
    let list = points.get(symbol);
    if (!list) points.set(symbol, (list = []));
    list.push(update.point);
    if (list.length > INSTRUMENT_CACHE_CAP) list.splice(0, list.length - INSTRUMENT_CACHE_CAP);
    // The chart price is the bid: one tick per quote, its size counted once.
    if (message.entry === ENTRY_BID) {
      let symbolTicks = ticks.get(symbol);
      if (!symbolTicks) ticks.set(symbol, (symbolTicks = []));
      symbolTicks.push({ time: message.tm, price: message.price, size: message.size });
    }
  }
  if (pendingQuotes.size > 0) quoteThrottle.schedule();
  for (const [symbol, list] of ticks) {
    liveStats.chartTicks += list.length;
    for (const listener of tickListeners.get(symbol) ?? []) listener(list);
  }
}

const batcher = new UpdateBatcher<Incoming>(processBatch);

/** Takes one live message of a symbol into the pipeline (from the socket or the parent). */
export function ingestLiveMessage(symbol: string, data: unknown): void {
  const parsed = livePriceMessageSchema.safeParse(data);
  if (!parsed.success) {
    liveStats.ignored += 1;
    return;
  }
  liveStats.messages += 1;
  for (const listener of messageListeners.get(symbol) ?? []) listener(parsed.data);
  batcher.push({ symbol, message: parsed.data });
}

function clearSymbol(symbol: string): void {
  latest.delete(symbol);
  points.delete(symbol);
  pendingQuotes.delete(symbol);
  batcher.drop((item) => item.symbol === symbol);
  clearQuote(symbol);
}

// ---- Transports: the main window's centrifuge client, or the parent window for frames ----

const channels = new Map<string, Subscription>();
let liveClient: Centrifuge | null = null;

function openChannel(client: Centrifuge, symbol: string): void {
  const channel = channelOf(symbol);
  const existing = client.getSubscription(channel);
  const sub = existing ?? client.newSubscription(channel);
  if (!existing) {
    sub.on('publication', (ctx) => ingestLiveMessage(symbol, ctx.data));
    // what was published before the subscription began comes from the quote cache
    sub.on('subscribed', () => requestQuoteCache(symbol, true));
  }
  channels.set(symbol, sub);
  sub.subscribe();
}

const centrifugeTransport: ChannelTransport = {
  open(symbol) {
    if (liveClient) openChannel(liveClient, symbol);
  },
  close(symbol) {
    const sub = channels.get(symbol);
    channels.delete(symbol);
    if (!sub) return;
    sub.unsubscribe();
    sub.removeAllListeners();
    liveClient?.removeSubscription(sub);
  },
};

// A child frame asks its parent to hold a symbol; the parent forwards its live messages.
const frameTransport: ChannelTransport = {
  open(symbol) {
    postFrameMessage(window.parent, {
      type: 'cw_action',
      action: SHARED_ACTIONS.liveSubscribe,
      payload: { symbol },
    });
  },
  close(symbol) {
    postFrameMessage(window.parent, {
      type: 'cw_action',
      action: SHARED_ACTIONS.liveUnsubscribe,
      payload: { symbol },
    });
  },
};

const transport: ChannelTransport = {
  open: (symbol) => (isChildFrame() ? frameTransport : centrifugeTransport).open(symbol),
  close: (symbol) => (isChildFrame() ? frameTransport : centrifugeTransport).close(symbol),
};

const registry = new RefCountedSubscriptions(transport, clearSymbol);

// A client created after charts asked for symbols (or a new one) opens what they hold.
onLiveClient((client) => {
  if (client === liveClient) return;
  liveClient = client;
  channels.clear();
  if (client)
    for (const symbol of registry.symbols()) {
      if (registry.isOpen(symbol)) openChannel(client, symbol);
    }
});

// ---- Public API ----

let cacheRequest: string[] = [];
let refreshRequest: string[] = [];
let cacheTimer: ReturnType<typeof setTimeout> | null = null;

/**
 * Asks the quote cache for a symbol: one without a live quote yet, or (`refresh`) one whose
 * channel has just been subscribed, whatever it holds. Symbols asked for in the same turn go
 * out in one comma-joined call of each kind.
 */
function requestQuoteCache(symbol: string, refresh = false): void {
  (refresh ? refreshRequest : cacheRequest).push(symbol);
  cacheTimer ??= setTimeout(() => {
    const watched = (s: string) => registry.count(s) > 0;
    const refreshed = [...new Set(refreshRequest.filter(watched))];
    const symbols = cacheRequest.filter((s) => watched(s) && !latest.has(s));
    cacheRequest = [];
    refreshRequest = [];
    cacheTimer = null;
    void fetchQuoteCache(symbols.filter((s) => !refreshed.includes(s)));
    void refreshQuoteCache(refreshed);
  }, 0);
}

/**
 * Watches an instrument's live prices: counts one holder of its channel (spec section 4),
 * fetches the quote cache while no live quote exists, and returns the cancel.
 */
export function watchSymbol(symbol: string): () => void {
  const release = registry.acquire(symbol);
  if (!latest.has(symbol)) requestQuoteCache(symbol);
  return release;
}

/** Calls `listener` with each batch of a symbol's bid ticks (the chart price). */
export function onTicks(symbol: string, listener: TickListener): () => void {
  let set = tickListeners.get(symbol);
  if (!set) tickListeners.set(symbol, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0 && tickListeners.get(symbol) === set) tickListeners.delete(symbol);
  };
}

/** Calls `listener` with every raw live message of a symbol (frame forwarding). */
export function onLiveMessages(symbol: string, listener: MessageListener): () => void {
  let set = messageListeners.get(symbol);
  if (!set) messageListeners.set(symbol, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0 && messageListeners.get(symbol) === set) messageListeners.delete(symbol);
  };
}

/** The newest price data of a symbol, unthrottled (undefined before its first message). */
export function getLivePrice(symbol: string): PriceData | undefined {
  return latest.get(symbol);
}

/** The newest chart points of a symbol, at most `maxDataPoints` (settings) of them. */
export function getChartPoints(symbol: string): readonly ChartPoint[] {
  const list = points.get(symbol) ?? [];
  const max = throttleSettings().maxDataPoints;
  return list.length > max ? list.slice(list.length - max) : list;
}

/** How many holders watch a symbol; whether its channel is open. */
export function watchers(symbol: string): number {
  return registry.count(symbol);
}

export function watchedSymbols(): string[] {
  return registry.symbols();
}

/** Test helper: drops every subscription and cached price. */
export function resetLive(): void {
  registry.clear();
  batcher.dispose();
  quoteThrottle.cancel();
  latest.clear();
  points.clear();
  pendingQuotes.clear();
  for (const key of Object.keys(liveStats) as (keyof typeof liveStats)[]) liveStats[key] = 0;
}
