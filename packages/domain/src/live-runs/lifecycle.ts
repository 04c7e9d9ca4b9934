import { machine } from '../trading/lifecycle.ts';
import type { LiveRunStatus } from './schemas.ts';

/**
 * A live run's lifecycle: it is created running and stays running across evaluations until
 * the user stops it or too many failures in a row fail it. A stopped or failed run stays.
 */
export type LiveRunEvent = 'Evaluated' | 'Stopped' | 'Failed';

/** The status a new run is stored with. */
export const LIVE_RUN_CREATED: LiveRunStatus = 'running';

export const liveRunTransition = machine<LiveRunStatus, LiveRunEvent>('live run', {
  running: { Evaluated: 'running', Stopped: 'stopped', Failed: 'failed' },
  stopped: {},
  failed: {},
});
