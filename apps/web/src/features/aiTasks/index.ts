// The AI tasks feature's public face: what other features may import (apps/web/boundaries.js).
export { registerAiTasks } from './register';
