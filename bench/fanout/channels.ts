/** The five channels every benchmark client subscribes to. */
export const CHANNELS = ['BTCUSDT', 'ETHUSDT', 'XAUUSD', 'XAGUSD', 'USOUSD'].map(
  (s) => `public:${s}`,
);
