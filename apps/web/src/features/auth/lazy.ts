// The auth feature's parts that load on demand (loaders only).
export const loadLoginPage = () => import('./LoginPage');
