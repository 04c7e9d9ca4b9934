import type { SimQuote } from '@ct/domain';
import { describe, expect, it } from 'vitest';
import { InProcessBroker } from '../gateway/broker.ts';
import { MarketFeed } from './feed.ts';
import { MarketData } from './market-data.ts';

// Monday 2024-01-08 10:00 UTC: BTCUSDT trades (24x7)
const NOW = Date.UTC(2024, 0, 8, 10);
const quote = (time: number, bid: number): SimQuote => ({ time, bid, ask: bid + 1, size: 1 });

describe('the feed across nodes', () => {
  it('hands a new quote to the shared cache before its tick is published', () => {
    const broker = new InProcessBroker();
    const order: string[] = [];
    broker.listen(({ channel }) => order.push(`published ${channel}`));
    const feed = new MarketFeed(new MarketData(1), broker, () => NOW);
    feed.shareTo((symbol) => order.push(`shared ${symbol}`));
    feed.pollSymbol('BTCUSDT');
    expect(order).toEqual([
      'shared BTCUSDT',
      'published public:BTCUSDT',
      'published public:BTCUSDT',
    ]);
    feed.pollSymbol('BTCUSDT'); // the same tick: nothing again
    expect(order).toHaveLength(3);
  });

  it("takes the active feed's quotes on a node whose feed does not run, the newest only", () => {
    const published: unknown[] = [];
    const broker = new InProcessBroker();
    broker.listen((p) => published.push(p));
    const feed = new MarketFeed(new MarketData(1), broker, () => NOW);
    const heard: string[] = [];
    feed.onQuote(({ symbol }) => heard.push(symbol));
    feed.adopt('BTCUSDT', quote(2000, 50_000));
    expect(feed.latestQuote('BTCUSDT')).toEqual(quote(2000, 50_000));
    feed.adopt('BTCUSDT', quote(1999, 1)); // late: ignored
    expect(feed.latestQuote('BTCUSDT')?.bid).toBe(50_000);
    // adopting publishes nothing and wakes no listener (the trigger engine runs elsewhere)
    expect(published).toEqual([]);
    expect(heard).toEqual([]);
  });

  it('ignores quotes from elsewhere while it runs itself', () => {
    const feed = new MarketFeed(new MarketData(1), new InProcessBroker(), () => NOW);
    feed.start();
    try {
      expect(feed.running).toBe(true);
      const own = feed.latestQuote('BTCUSDT');
      feed.adopt('BTCUSDT', quote(NOW + 60_000, 1));
      expect(feed.latestQuote('BTCUSDT')).toEqual(own);
    } finally {
      feed.stop();
    }
    expect(feed.running).toBe(false);
  });
});
