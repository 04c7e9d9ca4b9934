import { realTimers, type Timers } from './timers';

export type Throttle = {
  /** Asks for a run: now when the last one is at least `delay` ms ago, else once later. */
  schedule(): void;
  /** Runs a pending run now. */
  flush(): void;
  cancel(): void;
};

/**
 * Leading and trailing throttle with a delay read at every call (settings change live):
 * the first request runs at once, requests within the delay collapse into one run at its
 * end. The work itself reads the newest state, so nothing is lost, only coalesced.
 */
export function createThrottle(
  run: () => void,
  delay: () => number,
  timers: Timers = realTimers,
): Throttle {
  let lastRun = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const fire = () => {
    timer = null;
    lastRun = timers.now();
    run();
  };
  return {
    schedule() {
      if (timer !== null) return;
      const wait = lastRun + delay() - timers.now();
      if (wait <= 0) fire();
      else timer = timers.setTimeout(fire, wait);
    },
    flush() {
      if (timer === null) return;
      timers.clearTimeout(timer);
      fire();
    },
    cancel() {
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
    },
  };
}
