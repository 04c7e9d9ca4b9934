import type { APIRequestContext } from 'playwright-core';

/*
 * The journeys move prices with the product's test-only feed control (the product is
 * started with MARKET_TEST_CONTROL=1 in global-setup.ts): a pinned quote is published by
 * the live feed like any tick and stays until released, so a journey decides where the
 * market is instead of racing the simulator's clock.
 */

const TEST_QUOTE_PATH = '/api/test/market/quote';

/**
 * Pins the instrument's quote. Resolves once the product has published it and its trading
 * engine has acted on it (take-profits, stop-losses and pending orders it reaches).
 */
export async function setQuote(
  request: APIRequestContext,
  symbol: string,
  bid: number,
  ask: number,
): Promise<void> {
  const res = await request.post(TEST_QUOTE_PATH, { data: { symbol, bid, ask } });
  if (!res.ok()) {
    throw new Error(`Pinning ${symbol} at ${bid}/${ask}: ${res.status()} ${await res.text()}`);
  }
}

/** Releases the instrument's pinned quote: the simulation quotes it again. */
export async function releaseQuote(request: APIRequestContext, symbol: string): Promise<void> {
  const res = await request.delete(`${TEST_QUOTE_PATH}/${symbol}`);
  if (!res.ok()) throw new Error(`Releasing ${symbol}: ${res.status()} ${await res.text()}`);
}
