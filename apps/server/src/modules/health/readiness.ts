/**
 * What `/readyz` asks before it says a node may take traffic. Each part of the server that
 * can be missing registers a probe under a name (the database, Redis, the strategy sandbox,
 * the feed leader); a probe answers `null` when all is well, or why not. A probe that throws
 * or takes longer than `timeoutMs` is a failed check, so one hung dependency cannot hang
 * the load balancer's probe.
 */
export type ReadinessProbe = () => Promise<string | null> | string | null;

export type CheckResult = { ok: true } | { ok: false; detail: string };

export type ReadinessReport = {
  ready: boolean;
  checks: Record<string, CheckResult>;
};

/** How long one probe may take before its check counts as failed. */
export const DEFAULT_PROBE_TIMEOUT_MS = 2000;

export class Readiness {
  private readonly probes = new Map<string, ReadinessProbe>();
  private drainingSince: number | null = null;

  constructor(private readonly timeoutMs = DEFAULT_PROBE_TIMEOUT_MS) {}

  /**
   * Adds (or replaces) the probe called `name`; returns the function that removes it.
   * E.g. the feed election: `readiness.register('feed', () => leaderKnown ? null : 'no feed leader')`.
   */
  register(name: string, probe: ReadinessProbe): () => void {
    this.probes.set(name, probe);
    return () => {
      if (this.probes.get(name) === probe) this.probes.delete(name);
    };
  }

  /** The names of the registered probes, in registration order. */
  names(): string[] {
    return [...this.probes.keys()];
  }

  /** The node is shutting down: not ready from now on, whatever the probes say. */
  markDraining(nowMs: number): void {
    this.drainingSince ??= nowMs;
  }

  get draining(): boolean {
    return this.drainingSince !== null;
  }

  /** Runs every probe at once, each within the timeout. */
  async check(): Promise<ReadinessReport> {
    const entries = await Promise.all(
      [...this.probes].map(async ([name, probe]) => [name, await this.run(probe)] as const),
    );
    const checks: Record<string, CheckResult> = {};
    if (this.draining) checks.shutdown = { ok: false, detail: 'the server is shutting down' };
    for (const [name, result] of entries) checks[name] = result;
    return { ready: Object.values(checks).every((c) => c.ok), checks };
  }

  private async run(probe: ReadinessProbe): Promise<CheckResult> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`no answer within ${this.timeoutMs} ms`), this.timeoutMs);
    });
    try {
      const problem = await Promise.race([Promise.resolve().then(probe), timeout]);
      return problem === null ? { ok: true } : { ok: false, detail: problem };
    } catch (error) {
      return { ok: false, detail: error instanceof Error ? error.message : String(error) };
    } finally {
      clearTimeout(timer);
    }
  }
}
