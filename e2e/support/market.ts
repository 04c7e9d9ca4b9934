import { MarketSimulator, snapToTickDirected, type SimQuote } from '@ct/domain';
import { INSTRUMENTS } from '../../apps/server/src/modules/market/catalogue.ts';

/*
 * The product's market is a deterministic simulation (seed MARKET_SEED, default 1): the
 * quote of an instrument at a time is a pure function of both. The journeys use the same
 * simulation to know where the live feed goes next, so a take-profit can be set that the
 * feed reaches within seconds. `expectSameMarket` checks the prediction against the
 * running server before anything relies on it.
 */

/** First simulated day of instruments without shipped history (server market-data.ts). */
const SIMULATION_START_DAY = Date.UTC(1985, 0, 1);

export type Market = {
  tick: number;
  quoteAt(t: number): SimQuote | null;
};

/** The simulated market of one catalogue instrument without shipped history. */
export function simulatedMarket(symbol: string, seed = 1): Market {
  const instrument = INSTRUMENTS.get(symbol);
  if (!instrument) throw new Error(`Unknown instrument ${symbol}`);
  if (instrument.history) throw new Error(`${symbol} continues shipped history: not predicted`);
  const sim = new MarketSimulator({
    symbol,
    seed,
    tick: instrument.min_price_tick,
    basePrice: instrument.sim.basePrice,
    annualVolatility: instrument.sim.annualVolatility,
    spreadTicks: instrument.sim.spreadTicks,
    calendar: instrument.calendar,
    dailyVolume: instrument.sim.dailyVolume,
    ticksPerMinute: instrument.sim.ticksPerMinute,
    startDay: SIMULATION_START_DAY,
  });
  return { tick: instrument.min_price_tick, quoteAt: (t) => sim.quoteAt(t) };
}

/** True when the server's quote `{ bid, ask }` read at about `at` is the predicted one. */
export function matchesPrediction(
  market: Market,
  quote: { bid: number; ask: number },
  at: number,
): boolean {
  for (let dt = -2000; dt <= 1000; dt += 250) {
    const q = market.quoteAt(at + dt);
    if (q && q.bid === quote.bid && q.ask === quote.ask) return true;
  }
  return false;
}

export type TakeProfitPlan = {
  side: 'buy' | 'sell';
  /** When to press the place button (epoch ms). */
  placeAt: number;
  /** The take-profit price to put on the ticket. */
  tp: number;
  /** When the feed first reaches it (epoch ms). */
  hitAt: number;
};

/** How late after `placeAt` the order may reach the server and still be valid. */
const LATE_CLICK_MS = 8_000;

/**
 * Finds the market order with a take-profit that the feed hits soonest: for each moment to
 * place it (from `now + prepareMs`, every second) and each side, the take-profit nearest to
 * the fill that the limit band allows (1.001 × the ask for a buy, 0.999 × the bid for a
 * sell, over the quotes around the click, plus two ticks) and the first later tick that
 * reaches it, at least `holdMs` after the fill so the position is seen open first.
 */
export function planTakeProfit(
  market: Market,
  options: { now?: number; prepareMs?: number; holdMs?: number; horizonMs?: number } = {},
): TakeProfitPlan | null {
  const {
    now = Date.now(),
    prepareMs = 20_000,
    holdMs = 10_000,
    horizonMs = 10 * 60_000,
  } = options;
  const { tick } = market;
  const end = now + horizonMs;
  let best: TakeProfitPlan | null = null;
  // Mid-second: the fill takes the tick of that second whatever the click latency.
  for (
    let placeAt = Math.floor((now + prepareMs) / 1000) * 1000 + 400;
    placeAt < end && (best === null || placeAt + holdMs < best.hitAt);
    placeAt += 1000
  ) {
    let maxAsk = -Infinity;
    let minBid = Infinity;
    // The TP must stay valid from a little before the planned click to well after it: a
    // loaded machine can click (and the server can check the order) seconds late.
    for (let t = placeAt - 1500; t <= placeAt + LATE_CLICK_MS; t += 250) {
      const q = market.quoteAt(t);
      if (!q) continue;
      maxAsk = Math.max(maxAsk, q.ask);
      minBid = Math.min(minBid, q.bid);
    }
    if (!Number.isFinite(maxAsk) || !Number.isFinite(minBid)) continue;
    const candidates = [
      {
        side: 'buy' as const,
        tp: snapToTickDirected(maxAsk * 1.001, tick, 'up') + 2 * tick,
        reached: (q: SimQuote, tp: number) => q.bid >= tp,
      },
      {
        side: 'sell' as const,
        tp: snapToTickDirected(minBid * 0.999, tick, 'down') - 2 * tick,
        reached: (q: SimQuote, tp: number) => q.ask <= tp,
      },
    ];
    for (const { side, tp: raw, reached } of candidates) {
      const tp = Number(raw.toFixed(8));
      let hitAt: number | null = null;
      for (let t = placeAt - 1000; t < end; t += 500) {
        const q = market.quoteAt(t);
        if (q && reached(q, tp)) {
          hitAt = q.time;
          break;
        }
      }
      if (hitAt === null || hitAt < placeAt + LATE_CLICK_MS + holdMs) continue;
      if (best === null || hitAt < best.hitAt) best = { side, placeAt, tp, hitAt };
    }
  }
  return best;
}
