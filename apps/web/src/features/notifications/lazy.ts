// The notifications feature's parts that load on demand (loaders only).
export const loadNotificationsPanel = () => import('./NotificationsPanel');
export const loadNotificationsRuntime = () => import('./NotificationsRuntime');
