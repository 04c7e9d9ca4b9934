import { vi } from 'vitest';
import { jsonResponse } from '../../test/fixtures';

/** Groups as GET /trading/symbol/groups answers them. */
export const GROUPS = [
  [
    1,
    'Crypto',
    'crypto',
    [
      ['BTCUSDT', 'Bitcoin / Tether'],
      ['ETHUSDT', 'Ether / Tether'],
    ],
  ],
  [
    2,
    'Metals',
    'metals',
    [
      ['XAUUSD', 'Gold Spot'],
      ['XAGUSD', 'Silver Spot'],
    ],
  ],
  [4, 'Forex', 'fx', [['EURUSD', 'Euro / US Dollar']]],
];

function symbol(name: string, isTrading: boolean, tick = 0.01) {
  return {
    symbol: name,
    symbol_cn: name,
    symbol_en: name,
    symbol_type: 1,
    standard_lot: 1,
    volume_multiple: 1,
    margin_ratio_by_money: 0.1,
    currency: 'USD',
    min_price_tick: tick,
    quote_time: '',
    trade_time: '',
    is_trading: isTrading,
    vol_limit_max: 100,
    vol_limit_min: 0.01,
    max_limit_ov: 100,
    min_limit_ov: 0.01,
  };
}

export const SYMBOL_LIST = [
  {
    market_type: 'crypto',
    market_name: '数字货币',
    market_name_en: 'Crypto',
    lists: [symbol('BTCUSDT', true, 0.1), symbol('ETHUSDT', true)],
  },
  {
    market_type: 'metals',
    market_name: '贵金属',
    market_name_en: 'Metals',
    lists: [symbol('XAUUSD', false), symbol('XAGUSD', false, 0.001)],
  },
];

/**
 * Answers the market calls a chart makes (groups, symbol list, klines, quote cache and,
 * unless `template` is null, the strategy template); anything else is a 404.
 */
export function stubMarketFetch(options: { template?: string | null } = {}) {
  const template =
    options.template === undefined ? 'def main(data_array):\n    return []\n' : options.template;
  const fetch = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    switch (url.pathname) {
      case '/trading/symbol/groups':
        return jsonResponse(GROUPS);
      case '/trading/symbol/list':
        return jsonResponse({ code: 0, msg: 'success', data: { lists: SYMBOL_LIST } });
      case '/trading/kline/lists':
        return jsonResponse({ code: 0, msg: 'success', data: { lists: [] } });
      case '/trading/symbol/cache': {
        const symbols = String(JSON.parse(String(init?.body)).symbols).split(',');
        return jsonResponse({
          code: 0,
          msg: 'success',
          data: { caches: symbols.map((s) => ({ symbol: s, bid: 100, ask: 100.5 })) },
        });
      }
      case '/api/strategy/template':
        if (template !== null) return jsonResponse({ code: template });
    }
    return jsonResponse({ code: 40400, msg: `Route ${url.pathname} not found` }, 404);
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}
