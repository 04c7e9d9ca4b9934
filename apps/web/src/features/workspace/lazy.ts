// The workspace feature's parts that load on demand (loaders only).
export const loadWorkspacePage = () => import('./WorkspacePage');
export const loadChartPage = () => import('./ChartPage');
