import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildDeal as deal } from '../../test/fixtures';
import {
  AutoSaver,
  BUY_COLOR,
  isDefaultStrategy,
  markersFromDeals,
  SELL_COLOR,
  type SaveIndicator,
} from './logic';

describe('isDefaultStrategy', () => {
  it('matches Default and Default Strategy in any case', () => {
    expect(isDefaultStrategy('Default Strategy')).toBe(true);
    expect(isDefaultStrategy(' default ')).toBe(true);
    expect(isDefaultStrategy('My strategy')).toBe(false);
    expect(isDefaultStrategy(null)).toBe(false);
  });
});

describe('markersFromDeals', () => {
  it('a closed buy: OB below the bar at open, CS above at close', () => {
    expect(markersFromDeals([deal()])).toEqual([
      {
        time: 1_704_153_600,
        position: 'belowBar',
        shape: 'arrowUp',
        color: BUY_COLOR,
        text: 'OB',
        detail: 'OB: open buy 1 at 100',
      },
      {
        time: 1_704_240_000,
        position: 'aboveBar',
        shape: 'arrowDown',
        color: SELL_COLOR,
        text: 'CS',
        detail: 'CS: close by sell 1 at 110, P&L +10.00',
      },
    ]);
  });
  it('a closed sell: OS above at open, CB below at close', () => {
    const [open, close] = markersFromDeals([deal({ lots: -2 })]);
    expect(open).toMatchObject({ text: 'OS', position: 'aboveBar', shape: 'arrowDown' });
    expect(open?.color).toBe(SELL_COLOR);
    expect(close).toMatchObject({ text: 'CB', position: 'belowBar', shape: 'arrowUp' });
    expect(close?.color).toBe(BUY_COLOR);
    expect(close?.detail).toBe('CB: close by buy 1 at 110, P&L +10.00');
  });
  it('an open trade has no close marker; markers are sorted by time', () => {
    const markers = markersFromDeals([
      deal({ start: 300, end: null, close_date: null, status: 'NOT' }),
      deal({ start: 100, end: 200 }),
    ]);
    expect(markers.map((m) => [m.time, m.text])).toEqual([
      [100, 'OB'],
      [200, 'CS'],
      [300, 'OB'],
    ]);
  });
  it('no deals, no markers', () => {
    expect(markersFromDeals([])).toEqual([]);
  });
});

describe('AutoSaver (1500 ms debounce, indicator back to idle after 1.5 s)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup(save: (name: string, code: string) => Promise<unknown>) {
    const states: SaveIndicator[] = [];
    const saver = new AutoSaver(save, (s) => states.push(s));
    return { saver, states };
  }

  it('saves once, 1500 ms after the last edit, then success and idle', async () => {
    const save = vi.fn(() => Promise.resolve());
    const { saver, states } = setup(save);
    saver.edited('Mine', 'a');
    await vi.advanceTimersByTimeAsync(1000);
    saver.edited('Mine', 'ab');
    await vi.advanceTimersByTimeAsync(1499);
    expect(save).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledWith('Mine', 'ab');
    expect(states).toEqual(['saving', 'success']);
    await vi.advanceTimersByTimeAsync(1499);
    expect(saver.indicator).toBe('success');
    await vi.advanceTimersByTimeAsync(1);
    expect(states).toEqual(['saving', 'success', 'idle']);
  });

  it('a failed save shows error, then idle', async () => {
    const { saver, states } = setup(() => Promise.reject(new Error('down')));
    saver.edited('Mine', 'x');
    await vi.advanceTimersByTimeAsync(1500);
    expect(states).toEqual(['saving', 'error']);
    await vi.advanceTimersByTimeAsync(1500);
    expect(states).toEqual(['saving', 'error', 'idle']);
  });

  it('never saves Default or no selection', async () => {
    const save = vi.fn(() => Promise.resolve());
    const { saver, states } = setup(save);
    saver.edited('Default Strategy', 'x');
    saver.edited('default', 'x');
    saver.edited(null, 'x');
    await vi.advanceTimersByTimeAsync(5000);
    expect(save).not.toHaveBeenCalled();
    expect(states).toEqual([]);
  });

  it('cancel drops a pending save', async () => {
    const save = vi.fn(() => Promise.resolve());
    const { saver } = setup(save);
    saver.edited('Mine', 'x');
    saver.cancel();
    await vi.advanceTimersByTimeAsync(5000);
    expect(save).not.toHaveBeenCalled();
  });
});

describe('AutoSaver never replaces saved code with empty code', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const SAVED = 'def main(data_array):\n    return []\n';

  function setup(saved: string | null) {
    const states: SaveIndicator[] = [];
    const save = vi.fn((_name: string, _code: string) => Promise.resolve());
    const saver = new AutoSaver(save, (s) => states.push(s));
    if (saved !== null) saver.setSavedList([{ name: 'Mine', code: saved }]);
    return { saver, states, save };
  }

  it.each(['', '   ', '\n\t\n'])(
    'skips blank code %j over saved code and says so, then idle',
    async (blank) => {
      const { saver, states, save } = setup(SAVED);
      saver.edited('Mine', blank);
      await vi.advanceTimersByTimeAsync(1500);
      expect(save).not.toHaveBeenCalled();
      expect(states).toEqual(['skipped']);
      await vi.advanceTimersByTimeAsync(1500);
      expect(states).toEqual(['skipped', 'idle']);
    },
  );

  it('saves non-blank code, and blank code where nothing was saved', async () => {
    const withCode = setup(SAVED);
    withCode.saver.edited('Mine', '# x');
    await vi.advanceTimersByTimeAsync(1500);
    expect(withCode.save).toHaveBeenCalledWith('Mine', '# x');

    for (const saved of ['', '  ', null]) {
      const blank = setup(saved);
      blank.saver.edited('Mine', '');
      await vi.advanceTimersByTimeAsync(1500);
      expect(blank.save).toHaveBeenCalledWith('Mine', '');
    }
  });

  it('only the code after the last edit counts: an undo back to the saved code is saved', async () => {
    const { saver, save } = setup(SAVED);
    saver.edited('Mine', '');
    await vi.advanceTimersByTimeAsync(500);
    saver.edited('Mine', SAVED);
    await vi.advanceTimersByTimeAsync(1500);
    expect(save.mock.calls).toEqual([['Mine', SAVED]]);
  });

  it('flush saves a pending edit at once (switching strategy, closing the editor)', async () => {
    const { saver, save } = setup(SAVED);
    saver.edited('Mine', '# pending');
    await saver.flush();
    expect(save.mock.calls).toEqual([['Mine', '# pending']]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(save).toHaveBeenCalledTimes(1);
    // nothing pending: flush does nothing
    await saver.flush();
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('knows the code it saved itself, and forgets a deleted strategy', async () => {
    const { saver, save, states } = setup(null);
    saver.edited('Mine', '# first');
    await vi.advanceTimersByTimeAsync(1500);
    expect(saver.savedCode('Mine')).toBe('# first');
    saver.edited('Mine', '');
    await vi.advanceTimersByTimeAsync(1500);
    expect(save).toHaveBeenCalledTimes(1);
    expect(states.filter((s) => s !== 'idle')).toEqual(['saving', 'success', 'skipped']);
    saver.setSaved('Mine', null);
    saver.edited('Mine', '');
    await vi.advanceTimersByTimeAsync(1500);
    expect(save).toHaveBeenLastCalledWith('Mine', '');
  });

  it('a failed save keeps the code known before', async () => {
    const saver = new AutoSaver(
      () => Promise.reject(new Error('down')),
      () => undefined,
    );
    saver.setSavedList([{ name: 'Mine', code: SAVED }]);
    saver.edited('Mine', '# other');
    await vi.advanceTimersByTimeAsync(1500);
    expect(saver.savedCode('Mine')).toBe(SAVED);
  });

  it('flush of blank code over saved code is skipped too', async () => {
    const { saver, save, states } = setup(SAVED);
    saver.edited('Mine', ' ');
    await saver.flush();
    expect(save).not.toHaveBeenCalled();
    expect(states).toEqual(['skipped']);
  });
});
