import type { Browser, Page } from 'playwright-core';
import { expectPath, loginThroughPage } from './auth.ts';
import { newContext, type Viewport } from './browser.ts';
import { chartLines } from './chartLines.ts';
import { releaseQuote, setQuote } from './market.ts';
import { clearTrades, LIVE } from './trading.ts';

/*
 * The set-up the chart journeys share: a logged-in workspace (desktop or phone) whose chart
 * of `symbol` is drawn, with no trades of the symbol left by an earlier journey; its quote
 * pinned where the market is; and the way out (the quote released, the page's context closed).
 */

const PATH: Record<Viewport, string> = { desktop: '/desktop', phone: '/phone' };

/**
 * Logs in on a new `viewport` context, waits for the chart of `symbol` to be drawn (and for
 * what `ready` waits for, e.g. the lines that load just after the first chart) and clears the
 * symbol's trades.
 */
export async function openChartPage(
  browser: Browser,
  options: {
    baseURL: string;
    password: string;
    viewport: Viewport;
    symbol: string;
    ready?: (page: Page) => Promise<void>;
  },
): Promise<Page> {
  const { chart } = chartLines(options.symbol);
  const context = await newContext(browser, options.viewport, options.baseURL);
  const page = await context.newPage();
  await loginThroughPage(page, options.password);
  await expectPath(page, PATH[options.viewport]);
  await chart(page).locator('[data-phase=ready]').waitFor(LIVE);
  await options.ready?.(page);
  await clearTrades(page, options.symbol);
  return page;
}

/** Pins `symbol`'s quote at the market's bid now (whole dollars, ask half a dollar above). */
export async function pinQuoteAtMarket(page: Page, symbol: string): Promise<number> {
  const bid = await chartLines(symbol).marketNow(page);
  await setQuote(page.request, symbol, bid, bid + 0.5);
  return bid;
}

/** Releases `symbol`'s pinned quote and closes the page's context. */
export async function closeChartPage(page: Page, symbol: string): Promise<void> {
  await releaseQuote(page.request, symbol);
  await page.context().close();
}
