// The performance feature's public face: what other features may import (apps/web/boundaries.js).
export { MonitorPanelHost } from './MonitorPanelHost';
