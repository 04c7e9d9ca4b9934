import { create } from 'zustand';
import { getQuote } from '../../realtime/quotes';
import { throttleSettings } from '../../realtime/settings';
import { LIVE_STALE_MS, nextSimulatedPrice, TEST_SYMBOLS } from './logic';

/** One symbol's price as the page's charts show it. */
export type Sample = { symbol: string; price: number; time: number; simulated: boolean };

/** The newest sample of every test symbol, for the symbol table. */
export const useSampleStore = create<{ bySymbol: Record<string, Sample>; count: number }>(() => ({
  bySymbol: {},
  count: 0,
}));

export type SampleListener = (samples: readonly Sample[]) => void;

/**
 * Samples the test symbols' prices every `chartDataUpdateDelay` ms (read at every step,
 * so the control panel's slider applies at once): the live quote (written by the pipeline
 * at most every `priceUpdateDelay` ms) when one arrived in the last 5 s, else a simulated
 * random walk from the spec's base prices, marked simulated.
 */
export class PriceSampler {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly listeners = new Set<SampleListener>();
  private readonly simulated = new Map<string, number>();

  constructor(
    private readonly symbols: readonly string[] = TEST_SYMBOLS,
    private readonly now: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {}

  onSamples(listener: SampleListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.timer !== null) return;
    const step = () => {
      this.sample();
      this.timer = setTimeout(step, throttleSettings().chartDataUpdateDelay);
    };
    step();
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Takes one sample of every symbol and hands it to the listeners. */
  sample(): Sample[] {
    const now = this.now();
    const samples = this.symbols.map((symbol): Sample => {
      const quote = getQuote(symbol);
      // the bid, as the charts of the app draw (`last` alternates between bid and offer)
      const live = quote?.bid ?? quote?.last ?? null;
      if (quote?.source === 'realtime' && live !== null && now - quote.timestamp < LIVE_STALE_MS) {
        this.simulated.delete(symbol);
        return { symbol, price: live, time: now, simulated: false };
      }
      const price = nextSimulatedPrice(symbol, this.simulated.get(symbol), this.random);
      this.simulated.set(symbol, price);
      return { symbol, price, time: now, simulated: true };
    });
    useSampleStore.setState((s) => ({
      bySymbol: Object.fromEntries(samples.map((x) => [x.symbol, x])),
      count: s.count + 1,
    }));
    for (const listener of this.listeners) listener(samples);
    return samples;
  }
}
