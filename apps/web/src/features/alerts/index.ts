// The alerts feature's public face: what other features may import (apps/web/boundaries.js).
// Its panels load on demand: lazy.ts.
export { openAddAlert, useAlertDialog, type AlertDraft } from './dialogStore';
export { useAlertsLive } from './live';
export { changeAlert, useAlertList } from './queries';
