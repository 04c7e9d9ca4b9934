// The profile feature's public face: what other features may import (apps/web/boundaries.js).
// The page loads on demand.
export * from './lazy';
