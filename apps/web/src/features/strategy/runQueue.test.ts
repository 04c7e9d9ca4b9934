import { describe, expect, it } from 'vitest';
import { queuePositionAfter } from './runQueue';

const queued = (n: number) => `[backtest] Queued at position ${n}: waiting for a free slot`;

describe('the run’s place in the backtest queue', () => {
  it('is the last queue line’s position, until another line says the run moved on', () => {
    expect(queuePositionAfter(null, ['[backtest] Started s.py (30 bars)', queued(3)])).toBe(3);
    expect(queuePositionAfter(3, [queued(2), queued(1)])).toBe(1);
    expect(queuePositionAfter(1, ['[backtest] A slot is free: running now'])).toBeNull();
    expect(queuePositionAfter(1, ['a line the strategy printed'])).toBeNull();
    expect(queuePositionAfter(2, [''])).toBe(2);
    expect(queuePositionAfter(null, ['Connection established, waiting for logs...'])).toBeNull();
  });
});
