// The notifications feature's public face: what other features may import
// (apps/web/boundaries.js). All of it loads on demand.
export * from './lazy';
