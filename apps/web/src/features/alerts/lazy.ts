// The alerts feature's parts that load on demand (loaders only: nothing here is imported
// statically, so a module that imports this file does not take the parts into its chunk).
export const loadAddAlertDialog = () => import('./AddAlertDialog');
export const loadAlertsPanel = () => import('./AlertsPanel');
