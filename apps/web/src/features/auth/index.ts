// The auth feature's public face: what other features may import (apps/web/boundaries.js).
export { login, logout, selectTrader, switchTrader, useAuthStore, type AuthState } from './store';
