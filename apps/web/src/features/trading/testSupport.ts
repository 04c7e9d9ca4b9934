import type { PendingView, PositionView, SettleView, SymbolInfo } from '@ct/domain';
import { vi } from 'vitest';
import { jsonResponse } from '../../test/fixtures';
import { useQuoteStore } from '../../realtime/quotes';
import { useInstrumentStore } from '../../market/instruments';

/** BTCUSDT as the instrument list gives it: tick 0.1, lots 0.01 to 100, margin 10 %. */
export const BTC_INFO: SymbolInfo = {
  symbol: 'BTCUSDT',
  symbol_cn: '比特币/泰达币',
  symbol_en: 'Bitcoin / Tether',
  symbol_type: 1,
  standard_lot: 1,
  volume_multiple: 1,
  margin_ratio_by_money: 0.1,
  currency: 'USD',
  min_price_tick: 0.1,
  quote_time: '',
  trade_time: '',
  is_trading: true,
  vol_limit_max: 100,
  vol_limit_min: 0.01,
  max_limit_ov: 100,
  min_limit_ov: 0.01,
};

/** Makes the instrument list know BTCUSDT. */
export function knowBtc(): void {
  useInstrumentStore.setState({ symbols: { BTCUSDT: BTC_INFO } });
}

/** EURUSD as the instrument list gives it: tick 0.00001, lots 0.01 to 100, margin 1 %. */
export const EURUSD_INFO: SymbolInfo = {
  ...BTC_INFO,
  symbol: 'EURUSD',
  symbol_cn: '欧元/美元',
  symbol_en: 'Euro / US Dollar',
  volume_multiple: 100_000,
  margin_ratio_by_money: 0.01,
  min_price_tick: 0.00001,
};

/** Makes the instrument list know EURUSD too (with `overrides` to its terms). */
export function knowEurusd(overrides: Partial<SymbolInfo> = {}): void {
  useInstrumentStore.setState((s) => ({
    symbols: { ...s.symbols, EURUSD: { ...EURUSD_INFO, ...overrides } },
  }));
}

/** A live quote of a symbol, as the throttled quote store holds it. */
export function setQuote(symbol: string, bid: number, ask: number): void {
  useQuoteStore.setState((s) => ({
    quotes: {
      ...s.quotes,
      [symbol]: { bid, ask, last: bid, timestamp: Date.now(), source: 'realtime' },
    },
  }));
}

export function buildPosition(overrides: Partial<PositionView> = {}): PositionView {
  return {
    orderId: '11',
    uuid: 'acc-1',
    symbol: 'BTCUSDT',
    cmd: 1,
    volume: 2,
    settledVol: 0.5,
    price: 45_000,
    marketPrice: 45_100,
    tp: 0,
    sl: 0,
    floatProfit: 150,
    currency: 'USD',
    commissionFee: 0,
    storage: 0,
    createdAt: 1_700_000_000,
    closeType: 0,
    status: 'open',
    comment: '',
    clientOrderId: null,
    pId: null,
    ...overrides,
  };
}

export function buildPending(overrides: Partial<PendingView> = {}): PendingView {
  return {
    pId: '21',
    uuid: 'acc-1',
    symbol: 'BTCUSDT',
    cmd: 1,
    volume: 1,
    pendPrice: 44_000,
    tp: 0,
    sl: 0,
    expireType: 'GTC',
    expiresAt: null,
    createdAt: 1_700_000_000,
    triggerType: 'limit',
    status: 'working',
    orderId: null,
    comment: '',
    clientOrderId: null,
    ...overrides,
  };
}

export function buildSettle(overrides: Partial<SettleView> = {}): SettleView {
  return {
    tradeId: '31',
    sortId: 31,
    orderId: '11',
    symbol: 'BTCUSDT',
    openCmd: 1,
    closeCmd: 2,
    openPrice: 45_000,
    closePrice: 45_500,
    settleVolume: 0.5,
    isSettled: 1,
    settleDate: 20_240_115,
    settleProfit: 250,
    openAt: 1_700_000_000,
    closeAt: 1_700_000_600,
    openCommission: 0,
    closeCommission: 0,
    currency: 'USD',
    closeReason: 0,
    closeType: 0,
    comment: '',
    ...overrides,
  };
}

export type Call = { method: string; path: string; query: URLSearchParams; body: unknown };

/**
 * Stubs fetch with answers by path: a function of the call or a body (or a promise of one:
 * an answer the test releases later). Every call is recorded; unknown paths answer 404.
 */
export function stubTradingFetch(
  routes: Record<string, unknown | ((call: Call) => unknown | Response)>,
): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      const call: Call = {
        method: init?.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      calls.push(call);
      const route = routes[url.pathname];
      if (route === undefined) {
        return jsonResponse(
          { code: 40400, msg: `Route ${url.pathname} not found`, data: null },
          404,
        );
      }
      const answer: unknown = await (typeof route === 'function' ? route(call) : route);
      return answer instanceof Response ? answer : jsonResponse(answer);
    }),
  );
  return calls;
}

/** A success envelope of the list calls. */
export const ok = <T>(data: T, msg = 'success') => ({ code: 0, msg, data });

/** A success answer of the order helpers. */
export const helperOk = <T>(data: T, msg: string) => ({
  code: 0,
  msg,
  success: true,
  message: msg,
  data,
});

/** A refused helper call (HTTP 400/422 with the server's message). */
export const refused = (msg: string, status = 400) =>
  jsonResponse({ code: 40000, msg, data: null, success: false, message: msg }, status);
