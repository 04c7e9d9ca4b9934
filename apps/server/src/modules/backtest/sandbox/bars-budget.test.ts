import { describe, expect, it } from 'vitest';
import { BarsBudget, MAX_PASSES, type Release } from './bars-budget.ts';

/*
 * The bars all users' runs hold at once: runs past the budget wait (told their place) rather
 * than fail, are admitted as room is given back, round robin over users, and one user's huge
 * runs never hold another's small ones back. Only the order of events is asserted.
 */

const M = 1_000_000;

function budgetOf(budget: number, share = budget / 2, maxQueued = 16) {
  const events: string[] = [];
  const releases = new Map<string, Release>();
  const gate = new BarsBudget(() => ({ budget, share, maxQueued }));
  /** Asks for room, then lets what that settles happen (the run's promise goes on). */
  const ask = async (name: string, owner: string, bars: number) => {
    void gate
      .acquire(owner, bars, (position) => events.push(`${name} place ${position}`))
      .then(
        (release) => {
          events.push(`${name} admitted`);
          releases.set(name, release);
        },
        (error: Error) => events.push(`${name} refused: ${error.message}`),
      );
    await flush();
  };
  const release = async (name: string) => {
    events.push(`${name} done`);
    releases.get(name)?.();
    await flush();
  };
  return { gate, events, ask, release };
}

/** Lets admitted runs' continuations run (promise jobs only, no timers). */
async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

describe('the bars budget', () => {
  it('admits runs while they fit; one past it waits, told its place, and runs when room is back', async () => {
    const { gate, events, ask, release } = budgetOf(2 * M, 2 * M);
    await ask('a1', 'alice', M);
    await ask('b1', 'bob', M);
    await ask('c1', 'carol', M);
    await flush();
    expect(events).toEqual(['a1 admitted', 'b1 admitted', 'c1 place 1']);
    expect(gate.heldBars()).toBe(2 * M);
    await release('a1');
    expect(events.slice(3)).toEqual(['a1 done', 'c1 place 0', 'c1 admitted']);
    expect(gate.heldBars()).toBe(2 * M);
    await release('b1');
    await release('c1');
    expect(gate.heldBars()).toBe(0);
  });

  it("one user's huge runs do not hold another's small run back", async () => {
    const { events, ask, release } = budgetOf(2 * M);
    await ask('a1', 'alice', M);
    await ask('a2', 'alice', M); // past alice's share (half): waits for her own first run
    await ask('a3', 'alice', M);
    await ask('b1', 'bob', 5000);
    await flush();
    expect(events).toEqual(['a1 admitted', 'a2 place 1', 'a3 place 2', 'b1 admitted']);
    await release('b1');
    await release('a1');
    expect(events.slice(4)).toEqual([
      'b1 done',
      'a1 done',
      'a2 place 0',
      'a3 place 1',
      'a2 admitted',
    ]);
    await release('a2');
    expect(events.slice(9)).toEqual(['a2 done', 'a3 place 0', 'a3 admitted']);
  });

  it('a run larger than the whole budget runs alone rather than failing', async () => {
    const { events, ask, release } = budgetOf(M);
    await ask('s1', 'sam', 1000);
    await ask('big', 'alice', 3 * M);
    await flush();
    expect(events).toEqual(['s1 admitted', 'big place 1']);
    await release('s1');
    expect(events.slice(2)).toEqual(['s1 done', 'big place 0', 'big admitted']);
  });

  it('small runs pass a large waiting one only so many times, then it goes first', async () => {
    const { events, ask, release } = budgetOf(2 * M, 2 * M);
    await ask('x', 'xavier', 1.5 * M);
    await flush();
    await ask('big', 'alice', M); // does not fit beside x
    await flush();
    // each small run fits beside x and passes big, until big has been passed MAX_PASSES times
    for (let i = 1; i <= MAX_PASSES + 1; i++) await ask(`s${i}`, `user${i}`, 1000);
    await flush();
    const admitted = events.filter((e) => e.endsWith('admitted'));
    expect(admitted).toEqual([
      'x admitted',
      ...Array.from({ length: MAX_PASSES }, (_, i) => `s${i + 1} admitted`),
    ]);
    // the next small one waits behind big now
    for (let i = 1; i <= MAX_PASSES; i++) await release(`s${i}`);
    expect(events.filter((e) => e.endsWith('admitted')).length).toBe(MAX_PASSES + 1);
    await release('x');
    const after = events.slice(events.indexOf('x done'));
    expect(after.filter((e) => e.endsWith('admitted'))).toEqual([
      'big admitted',
      `s${MAX_PASSES + 1} admitted`,
    ]);
  });

  it('refuses a run when the queue is full, and a release is given back once only', async () => {
    const { gate, events, ask, release } = budgetOf(M, M, 1);
    await ask('a', 'alice', M);
    await ask('b', 'bob', M);
    await ask('c', 'carol', M);
    await flush();
    expect(events).toEqual([
      'a admitted',
      'b place 1',
      'c refused: Too many backtests are waiting',
    ]);
    await release('a');
    await release('a');
    expect(gate.heldBars()).toBe(M);
    expect(events.slice(3)).toEqual(['a done', 'b place 0', 'b admitted', 'a done']);
  });
});
