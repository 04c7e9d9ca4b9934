import { describe, expect, it } from 'vitest';
import { equityPoints } from './equityCurve';

describe('equityPoints', () => {
  it('reads the dates as UTC seconds and keeps the values', () => {
    expect(
      equityPoints([
        ['2024-01-01 00:00:00', 100000],
        ['2024-01-02 09:30:00', 100250.5],
      ]),
    ).toEqual([
      { time: Date.UTC(2024, 0, 1) / 1000, value: 100000 },
      { time: Date.UTC(2024, 0, 2, 9, 30) / 1000, value: 100250.5 },
    ]);
  });

  it('leaves out unreadable dates and times that do not move forward', () => {
    expect(
      equityPoints([
        ['2024-01-02 00:00:00', 1],
        ['2024-01-01 00:00:00', 2],
        ['2024-01-02 00:00:00', 3],
        ['yesterday', 4],
        ['2024-01-03 00:00:00', Number.NaN],
        ['2024-01-04 00:00:00', 5],
      ]).map((p) => p.value),
    ).toEqual([1, 5]);
    expect(equityPoints([])).toEqual([]);
  });
});
