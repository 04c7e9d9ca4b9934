import { liveStats } from '../../realtime/live';
import type { Counters } from './logic';

type MemoryInfo = { usedJSHeapSize: number };

/**
 * Measures the main thread while it runs: long tasks (PerformanceObserver 'longtask',
 * over 50 ms), animation frames (requestAnimationFrame) and, with the pipeline's own
 * counters, what a report needs. Browsers without long-task timing report none.
 */
export class MainThreadMonitor {
  private longTasks = 0;
  private longTaskMs = 0;
  private frames = 0;
  private observer: PerformanceObserver | null = null;
  private frameRequest: number | null = null;

  start(): void {
    if (this.observer || this.frameRequest !== null) return;
    try {
      if (
        typeof PerformanceObserver === 'function' &&
        PerformanceObserver.supportedEntryTypes?.includes('longtask')
      ) {
        this.observer = new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) {
            this.longTasks += 1;
            this.longTaskMs += entry.duration;
          }
        });
        this.observer.observe({ type: 'longtask', buffered: false });
      }
    } catch {
      this.observer = null;
    }
    if (typeof requestAnimationFrame === 'function') {
      const onFrame = () => {
        this.frames += 1;
        this.frameRequest = requestAnimationFrame(onFrame);
      };
      this.frameRequest = requestAnimationFrame(onFrame);
    }
  }

  stop(): void {
    this.observer?.disconnect();
    this.observer = null;
    if (this.frameRequest !== null) cancelAnimationFrame(this.frameRequest);
    this.frameRequest = null;
  }

  /** Whether the browser reports long tasks. */
  get longTasksSupported(): boolean {
    return this.observer !== null;
  }

  read(now: number): Counters {
    return {
      at: now,
      messages: liveStats.messages,
      quotesApplied: liveStats.quotesApplied,
      dropped: liveStats.dropped + liveStats.ignored,
      batches: liveStats.batches,
      batchedItems: liveStats.batchedItems,
      longTasks: this.longTasks,
      longTaskMs: this.longTaskMs,
      frames: this.frames,
    };
  }
}

/** The JS heap in use in MB, where the browser tells (Chromium); null elsewhere. */
export function usedHeapMb(): number | null {
  const memory = (performance as Performance & { memory?: MemoryInfo }).memory;
  return memory ? Math.round((memory.usedJSHeapSize / 1_048_576) * 10) / 10 : null;
}
