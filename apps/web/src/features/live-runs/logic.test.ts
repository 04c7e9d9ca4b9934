import { describe, expect, it } from 'vitest';
import {
  anyRunning,
  comparisonRows,
  curvePoints,
  liveRunIdOf,
  lotsProblem,
  maxPositionsProblem,
  pnlGap,
} from './logic';
import { buildComparison, buildRun, RUN_ID } from './testSupport';

describe('the start form’s checks', () => {
  it('a size is above 0 and at most 1000', () => {
    expect(lotsProblem(1)).toBeNull();
    expect(lotsProblem(0.5)).toBeNull();
    expect(lotsProblem(1000)).toBeNull();
    expect(lotsProblem(null)).toBe('Please enter the size');
    expect(lotsProblem(0)).toBe('Size must be above 0 and at most 1000');
    expect(lotsProblem(-2)).toBe('Size must be above 0 and at most 1000');
    expect(lotsProblem(1000.5)).toBe('Size must be above 0 and at most 1000');
  });

  it('max open positions is a whole number from 1 to 100', () => {
    expect(maxPositionsProblem(1)).toBeNull();
    expect(maxPositionsProblem(100)).toBeNull();
    expect(maxPositionsProblem(undefined)).toBe('Please enter the max open positions');
    for (const bad of [0, 101, 1.5, -1]) {
      expect(maxPositionsProblem(bad)).toBe(
        'Max open positions must be a whole number from 1 to 100',
      );
    }
  });
});

describe('which orders a run sent', () => {
  it('reads the run from a position’s comment or an order’s key, nothing from a person’s', () => {
    expect(liveRunIdOf({ comment: `live:${RUN_ID}` })).toBe(RUN_ID);
    expect(liveRunIdOf({ comment: '', clientOrderId: `${RUN_ID}:1700000660:1` })).toBe(RUN_ID);
    // the runner's keys carry the run id's first 12 hex digits
    expect(liveRunIdOf({ clientOrderId: 'lr0f8fad5bd9cb-o1700000660-1-0' })).toBe('0f8fad5bd9cb');
    expect(liveRunIdOf({ clientOrderId: 'lr0f8fad5bd9cb-c31' })).toBe('0f8fad5bd9cb');
    expect(liveRunIdOf({ clientOrderId: 'lr0f8fad5bd9cb-x31' })).toBeNull();
    expect(liveRunIdOf({ comment: '', clientOrderId: null })).toBeNull();
    expect(liveRunIdOf({ comment: 'live:me', clientOrderId: 'my-order-7' })).toBeNull();
    // a person's key that starts like a run's but is not one
    expect(liveRunIdOf({ clientOrderId: `${RUN_ID}:x` })).toBeNull();
  });

  it('polls while a run is running, and only then', () => {
    expect(anyRunning([buildRun({ status: 'stopped' }), buildRun()])).toBe(true);
    expect(anyRunning([buildRun({ status: 'stopped' }), buildRun({ status: 'failed' })])).toBe(
      false,
    );
    expect(anyRunning(undefined)).toBe(false);
  });

  it('does not poll for runs of the account whose live channel is followed', () => {
    const runs = [buildRun({ uuid: 'acc-1' }), buildRun({ uuid: 'acc-2', status: 'stopped' })];
    expect(anyRunning(runs, 'acc-1')).toBe(false);
    expect(anyRunning([...runs, buildRun({ uuid: 'acc-2' })], 'acc-1')).toBe(true);
  });
});

describe('the comparison', () => {
  it('lists every trade by open time: matched and one-sided', () => {
    const rows = comparisonRows(buildComparison());
    expect(rows.map((r) => [r.kind, (r.backtest ?? r.forward)!.open_time])).toEqual([
      ['matched', 1_700_000_060],
      ['only_forward', 1_700_000_240],
      ['only_backtest', 1_700_000_300],
    ]);
    expect(rows[0]).toMatchObject({ openPriceDiff: 10, openDelay: 0, profitDiff: -44 });
    expect(rows[1]).toMatchObject({ backtest: null, openPriceDiff: null, profitDiff: null });
  });

  it('the gap is forward minus backtest, to the cent', () => {
    expect(pnlGap({ pnl_backtest: 250, pnl_forward: 150 })).toBe(-100);
    expect(pnlGap({ pnl_backtest: 0.1, pnl_forward: 0.3 })).toBe(0.2);
  });

  it('curves start at 0 at the stretch’s start and keep the last value of a time', () => {
    expect(
      curvePoints(
        [
          [1_700_000_420, 250],
          [1_700_000_180, 200],
          [1_700_000_420, 260],
        ],
        1_700_000_000,
      ),
    ).toEqual([
      { time: 1_700_000_000, value: 0 },
      { time: 1_700_000_180, value: 200 },
      { time: 1_700_000_420, value: 260 },
    ]);
    expect(curvePoints([], 1_700_000_000)).toEqual([]);
    expect(curvePoints([[1_700_000_000, 5]], 1_700_000_000)).toEqual([
      { time: 1_700_000_000, value: 5 },
    ]);
  });
});
