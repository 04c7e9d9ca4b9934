import { describe, expect, it } from 'vitest';
import { queuePositionAfter, runProgressAfter } from './runQueue';

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

describe('the run’s progress through its bars', () => {
  it('is the last progress line’s percent, from none at the start until the run ends', () => {
    const progress = (n: number) => `[backtest] Running: ${n}% of the bars`;
    expect(runProgressAfter(null, ['[backtest] Started s.py (1000000 bars)'])).toBeNull();
    expect(runProgressAfter(null, [progress(5), 'printed', progress(45)])).toBe(45);
    expect(runProgressAfter(45, ['printed by the strategy'])).toBe(45);
    expect(
      runProgressAfter(90, ['[backtest] Finished in 4.1 s: 3 trades, net profit 1.00']),
    ).toBeNull();
    expect(runProgressAfter(90, ['[backtest] Failed after 30 s'])).toBeNull();
    expect(runProgressAfter(90, ['[backtest] Started s.py (10 bars)'])).toBeNull();
    // a progress line does not end a wait in the queue (it comes from a running run only)
    expect(queuePositionAfter(2, [progress(10)])).toBe(2);
  });
});
