// The chart feature's public face: what other features may import (apps/web/boundaries.js).
export { TradingChart } from './TradingChart';
export { fetchChartsLiveToken } from './drawings/api';
