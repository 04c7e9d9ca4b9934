import { afterAll, describe, expect, it, vi } from 'vitest';
import { testSandbox } from '../../../test/backtest.ts';
import { waitFor } from '../../../test/wait-for.ts';
import { SandboxPool } from './pool.ts';
import { SandboxProcess } from './process.ts';

/*
 * A warm session (optimisation trials) starts on one of the pool's pre-started interpreters
 * when one waits, so its first trial does not pay for an interpreter's start; the pool starts
 * another in its place. The session runs its updates as a fresh one would.
 */

const UID_BASE = 69_500;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const pool = new SandboxPool(testSandbox({ uidBase: UID_BASE, warm: 1, timeoutMs: 20_000 }), quiet);
afterAll(() => pool.close());

const CODE = 'PARAMS = {"n": 1}\n\n\ndef main(d):\n    return []\n';

describe('sandbox sessions', () => {
  it('start on a pre-started interpreter and run their updates', async () => {
    await pool.start();
    await waitFor(() => pool.idleCount() === 1);
    const waiting = new Set(
      (pool as unknown as { idle: SandboxProcess[] }).idle.map((process) => process.pid),
    );
    const started = vi.spyOn(SandboxProcess.prototype, 'startSession');
    const session = await pool.openSession({ code: CODE, filename: 'n.py', rows: [] });
    const sessionPid = (started.mock.contexts[0] as SandboxProcess | undefined)?.pid;
    started.mockRestore();
    expect(waiting.has(sessionPid)).toBe(true);
    // another waits in its place
    await waitFor(() => pool.idleCount() === 1);
    const outcomes = await session.nextMany(['PARAMS.update({"n": 2})', 'PARAMS.update({"n": 3})']);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['result', 'result']);
    session.close();
  }, 120_000);
});
