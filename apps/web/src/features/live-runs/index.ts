// The live runs feature's public face: what other features may import (apps/web/boundaries.js).
export { LiveRunTag } from './LiveRunTag';
export { isLiveRunOrder, LIVE_COLOR } from './markers';
export { registerLiveRuns } from './register';
