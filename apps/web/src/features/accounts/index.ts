// The accounts feature's public face: what other features may import (apps/web/boundaries.js).
export { AccountControl } from './AccountControl';
export { AccountSection } from './AccountSection';
export { LevelTag } from './LevelTag';
export { useAccounts } from './useAccounts';
