// The trading feature's parts that load on demand (loaders only).
export const loadTradingDialogs = () => import('./TradingDialogs');
export const loadNarrowTradingRuntime = () => import('./NarrowTradingRuntime');
