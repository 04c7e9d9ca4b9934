import type { Timers } from './timers';

/** A clock tests move by hand: timers fire in order when `advance` passes their time. */
export function manualClock(start = 0): Timers & { advance(ms: number): void; pending(): number } {
  let now = start;
  let nextHandle = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimeout(fn, ms) {
      const handle = nextHandle++;
      timers.set(handle, { at: now + ms, fn });
      return handle as unknown as ReturnType<typeof setTimeout>;
    },
    clearTimeout(handle) {
      timers.delete(handle as unknown as number);
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        let next: [number, { at: number; fn: () => void }] | null = null;
        for (const entry of timers)
          if (entry[1].at <= until && (!next || entry[1].at < next[1].at)) next = entry;
        if (!next) break;
        timers.delete(next[0]);
        now = next[1].at;
        next[1].fn();
      }
      now = until;
    },
    pending: () => timers.size,
  };
}

/*
 * Frames in jsdom, for the tests of the frame bridge and what uses it. A test file that
 * plays a child frame mocks `isChildFrame` to read `frameMode.child`:
 *
 *   vi.mock('…/realtime/connection', async (original) => ({
 *     ...(await original<typeof Connection>()),
 *     isChildFrame: () => frameMode.child,
 *   }));
 *
 * (jsdom's window.parent is the window itself, so "from the parent" is `from(window, …)`.)
 */

/** Whether the window under test plays a child frame. */
export const frameMode = { child: false };

/** This window's origin: the only one the bridge hears. */
export const ORIGIN = window.location.origin;

/** A child frame of this window (an iframe's window). */
export function frameWindow(): Window {
  const iframe = document.createElement('iframe');
  document.body.appendChild(iframe);
  return iframe.contentWindow!;
}

/** Delivers a window message from `source`, as postMessage would. */
export function messageFrom(source: Window, data: unknown, origin = ORIGIN): void {
  window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
}

/** Lets pending promises (handlers, answers) settle. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
