import { afterEach, describe, expect, it, vi } from 'vitest';
import { WatchedRows, watchedRowOf } from './watched-rows.ts';

describe('the rows the active feed reads when another node changed them', () => {
  it('names the pending order or position of the events that may add something to watch', () => {
    const account = 'account:3f2a';
    expect(watchedRowOf(account, { type: 'pending_added', pId: '12' })).toEqual({
      kind: 'pendings',
      id: 12,
    });
    expect(watchedRowOf(account, { type: 'pending_modified', pId: '13' })).toEqual({
      kind: 'pendings',
      id: 13,
    });
    expect(watchedRowOf(account, { type: 'position_opened', orderId: '7', pId: null })).toEqual({
      kind: 'positions',
      id: 7,
    });
    expect(watchedRowOf(account, { type: 'tpsl_changed', orderId: '8' })).toEqual({
      kind: 'positions',
      id: 8,
    });
  });

  it('ignores other events, other channels and ids that are not row ids', () => {
    expect(watchedRowOf('account:3f2a', { type: 'position_closed', orderId: '7' })).toBeNull();
    expect(watchedRowOf('public:XAUUSD', { type: 'position_opened', orderId: '7' })).toBeNull();
    expect(watchedRowOf('account:3f2a', { type: 'position_opened', orderId: '' })).toBeNull();
    expect(watchedRowOf('account:3f2a', { type: 'pending_added', pId: '1e400' })).toBeNull();
    expect(watchedRowOf('account:3f2a', 'position_opened')).toBeNull();
  });

  it('reads the rows named meanwhile together, each once', async () => {
    const reads: { pendings: number[]; positions: number[] }[] = [];
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    const rows = new WatchedRows({
      track: async (ids) => {
        reads.push(ids);
        if (reads.length === 1) await first;
      },
    });
    const a = rows.add({ kind: 'positions', id: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toHaveLength(1);
    // while the first read runs, three more names arrive: one read after it takes them all
    const b = rows.add({ kind: 'positions', id: 2 });
    const c = rows.add({ kind: 'pendings', id: 5 });
    const d = rows.add({ kind: 'positions', id: 2 });
    release();
    await Promise.all([a, b, c, d]);
    expect(reads).toEqual([
      { pendings: [], positions: [1] },
      { pendings: [5], positions: [2] },
    ]);
  });

  describe('under a burst', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('reads at most once per gap, whatever the rate of events', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
      const reads: number[][] = [];
      const rows = new WatchedRows({ track: async (ids) => void reads.push(ids.positions) }, 50);
      await rows.add({ kind: 'positions', id: 1 });
      const next = rows.add({ kind: 'positions', id: 2 });
      void rows.add({ kind: 'positions', id: 3 });
      await vi.advanceTimersByTimeAsync(40);
      expect(reads).toEqual([[1]]);
      await vi.advanceTimersByTimeAsync(10);
      await next;
      expect(reads).toEqual([[1], [2, 3]]);
    });
  });
});
