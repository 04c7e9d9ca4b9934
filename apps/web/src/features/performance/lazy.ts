// The performance feature's parts that load on demand (loaders only).
export const loadPerformanceTestPage = () => import('./PerformanceTestPage');
