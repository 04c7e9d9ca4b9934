// The body worker's entry: registers tsx in this thread (Node 20 does not hand the main
// thread's `--import tsx` loader to workers), then loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./body-worker.ts');
