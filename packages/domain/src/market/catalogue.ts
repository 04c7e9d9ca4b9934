import type { SessionCalendar } from './sessions.ts';

/**
 * The instrument catalogue: every instrument the venue quotes, grouped by market, with
 * its contract terms and the parameters of its simulated feed. An instrument's id is its
 * symbol everywhere (groups, channels `public:{symbol}`, kline and cache calls). Pure data:
 * the server serves it, and tools that drive the product read it without the server's code.
 */
export type CatalogueInstrument = {
  symbol: string;
  symbol_cn: string;
  symbol_en: string;
  /** 1 Spot/CFD/FX, 2 foreign futures, 3 domestic futures. */
  symbol_type: 1 | 2 | 3;
  /** Units of the underlying per lot (contract size). */
  volume_multiple: number;
  /** Initial margin as a fraction of the trade value. */
  margin_ratio_by_money: number;
  currency: string;
  min_price_tick: number;
  /** Market order quantity bounds (step = vol_limit_min). */
  vol_limit_min: number;
  vol_limit_max: number;
  /** Limit order quantity bounds (step = min_limit_ov). */
  min_limit_ov: number;
  max_limit_ov: number;
  /** Commission per lot per side, in the instrument currency. */
  commission_per_lot: number;
  calendar: SessionCalendar;
  sim: {
    basePrice: number;
    annualVolatility: number;
    spreadTicks: number;
    dailyVolume: number;
    ticksPerMinute: number;
  };
  /** Real history shipped with the product (file in apps/server/data/market). */
  history?: { file: string; resolution: 'month' | 'day' | '1h' };
};

export type CatalogueMarket = {
  id: number;
  market_type: string;
  market_name: string;
  market_name_en: string;
  instruments: CatalogueInstrument[];
};

type Terms = Omit<CatalogueInstrument, 'symbol' | 'symbol_cn' | 'symbol_en' | 'sim' | 'history'>;

const CRYPTO: Terms = {
  symbol_type: 1,
  volume_multiple: 1,
  margin_ratio_by_money: 0.1,
  currency: 'USD',
  min_price_tick: 0.01,
  vol_limit_min: 0.01,
  vol_limit_max: 100,
  min_limit_ov: 0.01,
  max_limit_ov: 100,
  commission_per_lot: 0,
  calendar: '24x7',
};

const FX: Terms = {
  symbol_type: 1,
  volume_multiple: 100_000,
  margin_ratio_by_money: 0.01,
  currency: 'USD',
  min_price_tick: 0.00001,
  vol_limit_min: 0.01,
  vol_limit_max: 100,
  min_limit_ov: 0.01,
  max_limit_ov: 100,
  commission_per_lot: 3.5,
  calendar: 'fx',
};

const SHARE: Terms = {
  symbol_type: 1,
  volume_multiple: 1,
  margin_ratio_by_money: 0.2,
  currency: 'USD',
  min_price_tick: 0.01,
  vol_limit_min: 1,
  vol_limit_max: 10_000,
  min_limit_ov: 1,
  max_limit_ov: 10_000,
  commission_per_lot: 0.005,
  calendar: 'us-equity',
};

const sim = (
  basePrice: number,
  annualVolatility: number,
  spreadTicks: number,
  dailyVolume: number,
  ticksPerMinute = 60,
) => ({ basePrice, annualVolatility, spreadTicks, dailyVolume, ticksPerMinute });

export const CATALOGUE: readonly CatalogueMarket[] = [
  {
    id: 1,
    market_type: 'crypto',
    market_name: '数字货币',
    market_name_en: 'Crypto',
    instruments: [
      {
        ...CRYPTO,
        symbol: 'BTCUSDT',
        symbol_cn: '比特币/泰达币',
        symbol_en: 'Bitcoin / Tether',
        min_price_tick: 0.1,
        sim: sim(45000, 0.55, 5, 40_000),
      },
      {
        ...CRYPTO,
        symbol: 'ETHUSDT',
        symbol_cn: '以太坊/泰达币',
        symbol_en: 'Ether / Tether',
        sim: sim(3000, 0.7, 10, 300_000),
      },
      {
        ...CRYPTO,
        symbol: 'SOLUSDT',
        symbol_cn: '索拉纳/泰达币',
        symbol_en: 'Solana / Tether',
        min_price_tick: 0.001,
        vol_limit_min: 0.1,
        min_limit_ov: 0.1,
        vol_limit_max: 10_000,
        max_limit_ov: 10_000,
        sim: sim(150, 0.9, 20, 2_000_000),
      },
      {
        ...CRYPTO,
        symbol: 'BTCUSD',
        symbol_cn: '比特币/美元',
        symbol_en: 'Bitcoin / US Dollar',
        sim: sim(93429, 0.55, 800, 40_000),
        history: { file: 'BTCUSD.csv', resolution: 'month' },
      },
    ],
  },
  {
    id: 2,
    market_type: 'metals',
    market_name: '贵金属',
    market_name_en: 'Metals',
    instruments: [
      {
        ...FX,
        symbol: 'XAUUSD',
        symbol_cn: '现货黄金',
        symbol_en: 'Gold Spot',
        volume_multiple: 100,
        min_price_tick: 0.01,
        margin_ratio_by_money: 0.05,
        commission_per_lot: 5,
        calendar: 'cme',
        sim: sim(2000, 0.15, 25, 150_000),
      },
      {
        ...FX,
        symbol: 'XAGUSD',
        symbol_cn: '现货白银',
        symbol_en: 'Silver Spot',
        volume_multiple: 5000,
        min_price_tick: 0.001,
        margin_ratio_by_money: 0.05,
        commission_per_lot: 5,
        calendar: 'cme',
        sim: sim(25, 0.25, 20, 60_000),
      },
    ],
  },
  {
    id: 3,
    market_type: 'energy',
    market_name: '能源',
    market_name_en: 'Energy',
    instruments: [
      {
        ...FX,
        symbol: 'USOUSD',
        symbol_cn: '美国原油',
        symbol_en: 'US Crude Oil (WTI)',
        volume_multiple: 1000,
        min_price_tick: 0.01,
        margin_ratio_by_money: 0.1,
        commission_per_lot: 5,
        calendar: 'cme',
        sim: sim(75, 0.35, 3, 200_000),
      },
      {
        ...FX,
        symbol: 'UKOUSD',
        symbol_cn: '英国原油',
        symbol_en: 'UK Brent Oil',
        volume_multiple: 1000,
        min_price_tick: 0.01,
        margin_ratio_by_money: 0.1,
        commission_per_lot: 5,
        calendar: 'cme',
        sim: sim(79, 0.33, 3, 150_000),
      },
      {
        ...FX,
        symbol: 'XNGUSD',
        symbol_cn: '天然气',
        symbol_en: 'Natural Gas',
        volume_multiple: 10_000,
        min_price_tick: 0.001,
        margin_ratio_by_money: 0.1,
        commission_per_lot: 5,
        calendar: 'cme',
        sim: sim(3, 0.6, 4, 100_000),
      },
    ],
  },
  {
    id: 4,
    market_type: 'fx',
    market_name: '外汇',
    market_name_en: 'Forex',
    instruments: [
      {
        ...FX,
        symbol: 'EURUSD',
        symbol_cn: '欧元/美元',
        symbol_en: 'Euro / US Dollar',
        sim: sim(1.2, 0.08, 8, 120_000),
        history: { file: 'EURUSD.csv', resolution: '1h' },
      },
      {
        ...FX,
        symbol: 'GBPUSD',
        symbol_cn: '英镑/美元',
        symbol_en: 'British Pound / US Dollar',
        sim: sim(1.27, 0.09, 10, 90_000),
      },
      {
        ...FX,
        symbol: 'USDJPY',
        symbol_cn: '美元/日元',
        symbol_en: 'US Dollar / Japanese Yen',
        currency: 'JPY',
        min_price_tick: 0.001,
        sim: sim(150, 0.09, 10, 100_000),
      },
      {
        ...FX,
        symbol: 'AUDUSD',
        symbol_cn: '澳元/美元',
        symbol_en: 'Australian Dollar / US Dollar',
        sim: sim(0.66, 0.1, 10, 60_000),
      },
    ],
  },
  {
    id: 5,
    market_type: 'indices',
    market_name: '股指',
    market_name_en: 'Stock Indices',
    instruments: [
      {
        ...SHARE,
        symbol: 'US30',
        symbol_cn: '道琼斯指数',
        symbol_en: 'Dow Jones 30',
        min_price_tick: 0.1,
        vol_limit_min: 0.1,
        min_limit_ov: 0.1,
        vol_limit_max: 100,
        max_limit_ov: 100,
        margin_ratio_by_money: 0.05,
        commission_per_lot: 1,
        calendar: 'cme',
        sim: sim(39000, 0.15, 20, 80_000),
      },
      {
        ...SHARE,
        symbol: 'NAS100',
        symbol_cn: '纳斯达克100指数',
        symbol_en: 'Nasdaq 100',
        min_price_tick: 0.1,
        vol_limit_min: 0.1,
        min_limit_ov: 0.1,
        vol_limit_max: 100,
        max_limit_ov: 100,
        margin_ratio_by_money: 0.05,
        commission_per_lot: 1,
        calendar: 'cme',
        sim: sim(18000, 0.2, 15, 90_000),
      },
      {
        ...SHARE,
        symbol: 'SPX500',
        symbol_cn: '标普500指数',
        symbol_en: 'S&P 500',
        min_price_tick: 0.1,
        vol_limit_min: 0.1,
        min_limit_ov: 0.1,
        vol_limit_max: 100,
        max_limit_ov: 100,
        margin_ratio_by_money: 0.05,
        commission_per_lot: 1,
        calendar: 'cme',
        sim: sim(5200, 0.16, 5, 100_000),
      },
      {
        ...SHARE,
        symbol: 'GER40',
        symbol_cn: '德国DAX指数',
        symbol_en: 'Germany 40',
        currency: 'EUR',
        min_price_tick: 0.1,
        vol_limit_min: 0.1,
        min_limit_ov: 0.1,
        vol_limit_max: 100,
        max_limit_ov: 100,
        margin_ratio_by_money: 0.05,
        commission_per_lot: 1,
        calendar: 'eu-equity',
        sim: sim(18000, 0.17, 10, 50_000),
      },
    ],
  },
  {
    id: 6,
    market_type: 'shares',
    market_name: '美股',
    market_name_en: 'US Shares',
    instruments: [
      {
        ...SHARE,
        symbol: 'GOOG',
        symbol_cn: '谷歌',
        symbol_en: 'Alphabet Inc.',
        sim: sim(400, 0.3, 2, 4_000_000),
        history: { file: 'GOOG.csv', resolution: 'day' },
      },
      {
        ...SHARE,
        symbol: 'AAPL',
        symbol_cn: '苹果',
        symbol_en: 'Apple Inc.',
        sim: sim(190, 0.28, 2, 50_000_000),
      },
      {
        ...SHARE,
        symbol: 'TSLA',
        symbol_cn: '特斯拉',
        symbol_en: 'Tesla Inc.',
        sim: sim(240, 0.55, 3, 90_000_000),
      },
      {
        ...SHARE,
        symbol: 'NVDA',
        symbol_cn: '英伟达',
        symbol_en: 'NVIDIA Corp.',
        sim: sim(120, 0.5, 2, 250_000_000),
      },
    ],
  },
  {
    id: 7,
    market_type: 'foreign_futures',
    market_name: '外盘期货',
    market_name_en: 'Foreign Futures',
    instruments: [
      {
        ...FX,
        symbol_type: 2,
        symbol: 'CL',
        symbol_cn: 'WTI原油期货',
        symbol_en: 'Crude Oil Futures (CME)',
        volume_multiple: 1000,
        min_price_tick: 0.01,
        vol_limit_min: 1,
        vol_limit_max: 100,
        min_limit_ov: 1,
        max_limit_ov: 100,
        margin_ratio_by_money: 0.08,
        commission_per_lot: 2.5,
        calendar: 'cme',
        sim: sim(75, 0.35, 1, 300_000),
      },
      {
        ...FX,
        symbol_type: 2,
        symbol: 'GC',
        symbol_cn: '黄金期货',
        symbol_en: 'Gold Futures (COMEX)',
        volume_multiple: 100,
        min_price_tick: 0.1,
        vol_limit_min: 1,
        vol_limit_max: 100,
        min_limit_ov: 1,
        max_limit_ov: 100,
        margin_ratio_by_money: 0.06,
        commission_per_lot: 2.5,
        calendar: 'cme',
        sim: sim(2010, 0.15, 1, 200_000),
      },
      {
        ...FX,
        symbol_type: 2,
        symbol: 'ES',
        symbol_cn: '标普500期货',
        symbol_en: 'E-mini S&P 500 Futures',
        volume_multiple: 50,
        min_price_tick: 0.25,
        vol_limit_min: 1,
        vol_limit_max: 100,
        min_limit_ov: 1,
        max_limit_ov: 100,
        margin_ratio_by_money: 0.05,
        commission_per_lot: 2.5,
        calendar: 'cme',
        sim: sim(5210, 0.16, 1, 1_500_000),
      },
    ],
  },
  {
    id: 8,
    market_type: 'domestic_futures',
    market_name: '国内期货',
    market_name_en: 'Domestic Futures',
    instruments: [
      {
        ...FX,
        symbol_type: 3,
        symbol: 'RB',
        symbol_cn: '螺纹钢',
        symbol_en: 'Rebar Futures (SHFE)',
        currency: 'CNY',
        volume_multiple: 10,
        min_price_tick: 1,
        vol_limit_min: 1,
        vol_limit_max: 500,
        min_limit_ov: 1,
        max_limit_ov: 500,
        margin_ratio_by_money: 0.1,
        commission_per_lot: 3,
        calendar: 'cn-futures',
        sim: sim(3500, 0.2, 1, 1_500_000),
      },
      {
        ...FX,
        symbol_type: 3,
        symbol: 'AU',
        symbol_cn: '沪金',
        symbol_en: 'Gold Futures (SHFE)',
        currency: 'CNY',
        volume_multiple: 1000,
        min_price_tick: 0.02,
        vol_limit_min: 1,
        vol_limit_max: 500,
        min_limit_ov: 1,
        max_limit_ov: 500,
        margin_ratio_by_money: 0.08,
        commission_per_lot: 10,
        calendar: 'cn-futures',
        sim: sim(560, 0.14, 1, 300_000),
      },
      {
        ...FX,
        symbol_type: 3,
        symbol: 'IF',
        symbol_cn: '沪深300股指期货',
        symbol_en: 'CSI 300 Index Futures (CFFEX)',
        currency: 'CNY',
        volume_multiple: 300,
        min_price_tick: 0.2,
        vol_limit_min: 1,
        vol_limit_max: 100,
        min_limit_ov: 1,
        max_limit_ov: 100,
        margin_ratio_by_money: 0.12,
        commission_per_lot: 25,
        calendar: 'cn-futures',
        sim: sim(3900, 0.22, 1, 100_000),
      },
    ],
  },
];

/** Every instrument of the catalogue by symbol. */
export const INSTRUMENTS: ReadonlyMap<string, CatalogueInstrument> = new Map(
  CATALOGUE.flatMap((market) => market.instruments.map((i) => [i.symbol, i] as const)),
);
