// The workspace feature's public face: what other features may import
// (apps/web/boundaries.js). Its pages load on demand.
export * from './lazy';
