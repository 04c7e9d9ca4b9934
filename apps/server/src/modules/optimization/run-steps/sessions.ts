import type { SandboxSession } from '../../backtest/sandbox/pool.ts';

/*
 * Warm interpreters not running a trial, by optimisation and stage (the bars differ by
 * stage): a trial takes one of its own optimisation's, never another's. At most `limit`
 * wait; the oldest is closed when another is put back.
 */
export class WarmSessions {
  private readonly idle: { key: string; session: SandboxSession }[] = [];

  constructor(private readonly limit: number) {}

  /** An idle live interpreter of `key` (`<optimisation>:<stage>`), or null. */
  take(key: string): SandboxSession | null {
    for (let i = this.idle.length - 1; i >= 0; i--) {
      const entry = this.idle[i];
      if (entry?.key !== key) continue;
      this.idle.splice(i, 1);
      if (entry.session.alive) return entry.session;
      entry.session.close();
    }
    return null;
  }

  put(key: string, session: SandboxSession): void {
    if (!session.alive) return;
    this.idle.push({ key, session });
    while (this.idle.length > Math.max(1, this.limit)) this.idle.shift()?.session.close();
  }

  /** Closes the idle interpreters of one optimisation. */
  closeOf(optimization: string): void {
    for (let i = this.idle.length - 1; i >= 0; i--) {
      if (this.idle[i]?.key.startsWith(`${optimization}:`))
        this.idle.splice(i, 1)[0]?.session.close();
    }
  }

  closeAll(): void {
    for (const entry of this.idle.splice(0)) entry.session.close();
  }
}
