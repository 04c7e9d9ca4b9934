/**
 * Runs `task` on request, one run at a time: requests made while a run is under way share
 * the one run after it. The promise of a request settles with a run that began after it
 * (so a caller that made a change and then asks sees it taken into account).
 */
export class Coalesced {
  private current: Promise<void> | null = null;
  private next: Promise<void> | null = null;

  constructor(private readonly task: () => Promise<void>) {}

  request(): Promise<void> {
    if (this.next) return this.next;
    const after = this.current ?? Promise.resolve();
    const next = after
      .catch(() => undefined)
      .then(() => {
        this.next = null;
        const run = this.task().finally(() => {
          if (this.current === run) this.current = null;
        });
        this.current = run;
        return run;
      });
    this.next = next;
    return next;
  }
}
