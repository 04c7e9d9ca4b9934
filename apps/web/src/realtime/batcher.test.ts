import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UpdateBatcher } from './batcher';
import { DEFAULT_BATCH, type BatchSettings } from './settings';

describe('UpdateBatcher (max batch 50, delay 16 ms, forced flush 200 ms)', () => {
  let settings: BatchSettings;
  let flushed: number[][];
  let batcher: UpdateBatcher<number>;

  beforeEach(() => {
    vi.useFakeTimers();
    settings = { ...DEFAULT_BATCH };
    flushed = [];
    batcher = new UpdateBatcher<number>(
      (items) => flushed.push(items),
      () => settings,
    );
  });
  afterEach(() => vi.useRealTimers());

  it('flushes 16 ms after the last item when the stream pauses', () => {
    batcher.push(1);
    vi.advanceTimersByTime(10);
    batcher.push(2);
    vi.advanceTimersByTime(15);
    expect(flushed).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(flushed).toEqual([[1, 2]]);
    expect(batcher.size).toBe(0);
  });

  it('flushes at once when the batch reaches 50 items', () => {
    for (let i = 0; i < 49; i++) batcher.push(i);
    expect(flushed).toEqual([]);
    batcher.push(49);
    expect(flushed).toHaveLength(1);
    expect(flushed[0]).toHaveLength(50);
    batcher.push(50);
    vi.advanceTimersByTime(16);
    expect(flushed.map((b) => b.length)).toEqual([50, 1]);
  });

  it('forces a flush 200 ms after the first item of a steady stream', () => {
    // One item every 10 ms never leaves 16 ms of quiet.
    for (let t = 0; t < 199; t += 10) {
      batcher.push(t);
      vi.advanceTimersByTime(10);
    }
    expect(flushed).toHaveLength(1);
    expect(flushed[0]).toHaveLength(20);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('never calls back for an empty batch and keeps the order of items', () => {
    batcher.flush();
    expect(flushed).toEqual([]);
    batcher.push(3);
    batcher.push(1);
    batcher.push(2);
    batcher.flush();
    expect(flushed).toEqual([[3, 1, 2]]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reads changed settings at the next push', () => {
    settings = { maxBatchSize: 3, batchDelay: 5, forceFlushInterval: 20 };
    batcher.push(1);
    batcher.push(2);
    batcher.push(3);
    expect(flushed).toEqual([[1, 2, 3]]);
    batcher.push(4);
    vi.advanceTimersByTime(5);
    expect(flushed).toEqual([[1, 2, 3], [4]]);
  });

  it('drops queued items of an instrument no longer watched', () => {
    batcher.push(1);
    batcher.push(2);
    batcher.drop((n) => n === 1);
    vi.advanceTimersByTime(16);
    expect(flushed).toEqual([[2]]);
    batcher.push(5);
    batcher.drop(() => true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
