// The strategy feature's parts that load on demand (loaders only).
export const loadStrategyActions = () => import('./actions');
