import { describe, expect, it } from 'vitest';
import { Coalesced } from './coalesce.ts';

function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('a coalesced task', () => {
  it('runs once per burst of requests, and again for a request made during a run', async () => {
    const runs: ReturnType<typeof deferred>[] = [];
    const task = new Coalesced(() => {
      const run = deferred();
      runs.push(run);
      return run.promise;
    });
    const first = task.request();
    await Promise.resolve();
    await Promise.resolve();
    expect(runs).toHaveLength(1);
    // made while the first run is under way: both share the one run after it
    const second = task.request();
    const third = task.request();
    expect(second).toBe(third);
    runs[0]?.resolve();
    await first;
    await Promise.resolve();
    expect(runs).toHaveLength(2);
    let settled = false;
    void second.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false); // it waits for the run that began after it
    runs[1]?.resolve();
    await second;
    expect(runs).toHaveLength(2);
  });

  it('passes a failure to the requests of that run and still runs later ones', async () => {
    let calls = 0;
    const task = new Coalesced(async () => {
      calls += 1;
      if (calls === 1) throw new Error('database away');
    });
    await expect(task.request()).rejects.toThrow('database away');
    await expect(task.request()).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });
});
