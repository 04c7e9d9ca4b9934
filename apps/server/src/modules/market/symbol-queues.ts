/**
 * Work per market symbol run one task after another (a symbol's ticks in order), symbols
 * side by side; `whenIdle` resolves once every queued task has ended. The trigger engine and
 * the alert engine queue their tick work here. A failing task is reported to `onError` and
 * does not stop the ones after it.
 */
export class SymbolQueues {
  private readonly queues = new Map<string, Promise<void>>();
  private busy = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly onError: (error: unknown, symbol: string) => void) {}

  enqueue(symbol: string, task: () => Promise<void>): Promise<void> {
    this.busy += 1;
    const previous = this.queues.get(symbol) ?? Promise.resolve();
    const next = previous
      .then(task)
      .catch((error: unknown) => this.onError(error, symbol))
      .finally(() => {
        this.busy -= 1;
        if (this.queues.get(symbol) === next) this.queues.delete(symbol);
        if (this.busy === 0) {
          const waiters = this.idleWaiters;
          this.idleWaiters = [];
          for (const resolve of waiters) resolve();
        }
      });
    this.queues.set(symbol, next);
    return next;
  }

  /** Resolves when every queued task has ended. */
  whenIdle(): Promise<void> {
    if (this.busy === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
