import type { PositionView } from '@ct/domain';
import { describe, expect, it, vi } from 'vitest';
import type { ActionOutcome, EditableOrder, TpslEdit } from '../../trading/actions';
import { buildPosition } from '../../trading/testSupport';
import { tradeLinesOf } from './model';
import { arrangeLabels, TradesView, type TradesViewDeps } from './view';

/*
 * Dropping a dragged TP or SL: refused with the rule's message, or confirmed and saved with
 * the Edit Order panel's action, the other level kept.
 */

const colors = { up: 'green', down: 'red' };

function setUp(
  position: PositionView,
  outcome: ActionOutcome = { success: true, message: 'ok' },
  bid = 50_000,
) {
  const save = vi.fn<(order: EditableOrder, edit: TpslEdit) => Promise<ActionOutcome>>(() =>
    Promise.resolve(outcome),
  );
  const error = vi.fn<(message: string) => void>();
  const deps: TradesViewDeps = {
    quote: () => ({ bid, ask: bid + 0.5 }),
    save,
    orderOf: (p) => ({
      orderId: p.orderId,
      symbol: p.symbol,
      side: 'buy',
      availableVolume: p.volume - p.settledVol,
      totalVolume: p.volume,
      openPrice: p.price,
      tp: p.tp,
      sl: p.sl,
      tick: 0.1,
    }),
    error,
  };
  const view = new TradesView(deps);
  const update = (p: PositionView | null) =>
    view.update({
      lines: tradeLinesOf(p ? [p] : [], [], 'BTCUSDT'),
      positions: new Map(p ? [[p.orderId, p]] : []),
      symbol: 'BTCUSDT',
      tick: 0.1,
      colors,
    });
  update(position);
  return { view, save, error, update };
}

// A buy opened at 50 000.5 with TP 50 100 and SL 49 900; the bid is 50 000 (tick 0.1).
const position = buildPosition({
  orderId: '12',
  cmd: 1,
  volume: 1,
  settledVol: 0,
  price: 50_000.5,
  tp: 50_100,
  sl: 49_900,
});

describe('dropping a TP or SL line', () => {
  it('refuses a level outside the range with the validator’s message and asks nothing', () => {
    const { view, error, save } = setUp(position);
    view.drop('tp:12', 70_000);
    // TP of a buy at 50 000.5: 1.001× = 50 050.5005 → 50 050.6; 1.2× = 60 000.6 → 60 000.6
    expect(error).toHaveBeenCalledWith('TP price must be between 50050.6 and 60000.6');
    expect(view.state.getState().confirm).toBeNull();
    expect(save).not.toHaveBeenCalled();
  });

  it('refuses an SL the market has already passed', () => {
    // SL range of the buy: 0.8× = 40 000.4 to 0.999× = 49 950.4995 → 49 950.4; the bid fell to 49 900
    const { view, error } = setUp(position, undefined, 49_900);
    view.drop('sl:12', 49_940);
    expect(error).toHaveBeenCalledWith('SL price must be below the current price 49900.0');
    view.drop('sl:12', 49_800);
    expect(view.state.getState().confirm).toEqual({ id: 'sl:12', kind: 'sl', price: 49_800 });
  });

  it('asks for confirmation, then saves the new TP and keeps the SL', async () => {
    const { view, save, error } = setUp(position);
    view.drop('tp:12', 50_150);
    expect(view.state.getState().confirm).toEqual({ id: 'tp:12', kind: 'tp', price: 50_150 });
    await view.confirm();
    expect(save).toHaveBeenCalledTimes(1);
    const [order, edit] = save.mock.calls[0]!;
    expect(order.orderId).toBe('12');
    expect(edit).toEqual({ tp: 50_150, sl: 49_900, tpEnabled: true, slEnabled: true });
    expect(error).not.toHaveBeenCalled();
    expect(view.state.getState()).toMatchObject({ confirm: null, saving: false });
  });

  it('shows the server’s refusal', async () => {
    const { view, error } = setUp(position, {
      success: false,
      message: 'TP price must be above the current price 50200.0',
    });
    view.drop('tp:12', 50_150);
    await view.confirm();
    expect(error).toHaveBeenCalledWith('TP price must be above the current price 50200.0');
    expect(view.state.getState().confirm).toBeNull();
  });

  it('Cancel drops the change; a position closed meanwhile ends the question', () => {
    const { view, save, update } = setUp(position);
    view.drop('sl:12', 49_950);
    view.dismiss();
    expect(view.state.getState().confirm).toBeNull();

    view.drop('sl:12', 49_950);
    update(null); // the SL was hit: the position and its lines are gone
    expect(view.state.getState().confirm).toBeNull();
    expect(save).not.toHaveBeenCalled();
  });
});

describe('moving a TP or SL with the keys', () => {
  it('Arrow Up / Down move a tick (Shift ten), Enter drops, Escape puts back', () => {
    const { view } = setUp(position);
    expect(view.key('tp:12', 'ArrowUp')).toBe(true);
    expect(view.key('tp:12', 'ArrowUp', true)).toBe(true);
    expect(view.state.getState().dragging).toEqual({ id: 'tp:12', price: 50_101.1 });
    view.key('tp:12', 'ArrowDown');
    expect(view.state.getState().dragging).toEqual({ id: 'tp:12', price: 50_101 });
    expect(view.key('tp:12', 'Enter')).toBe(true);
    expect(view.state.getState()).toMatchObject({
      dragging: null,
      confirm: { id: 'tp:12', kind: 'tp', price: 50_101 },
    });
    view.dismiss();

    view.key('sl:12', 'ArrowDown');
    expect(view.key('sl:12', 'Escape')).toBe(true);
    expect(view.state.getState()).toMatchObject({ dragging: null, confirm: null });
    // a position line does not move; other keys are left to the page
    expect(view.key('position:12', 'ArrowUp')).toBe(false);
    expect(view.key('tp:12', 'Tab')).toBe(false);
  });
});

describe('labels', () => {
  it('set side by side when their lines are closer than their height', () => {
    const lefts = arrangeLabels([
      { id: 'tp', y: 110, width: 60, height: 20 },
      { id: 'position', y: 100, width: 80, height: 20 },
      { id: 'sl', y: 300, width: 50, height: 20 },
      { id: 'pending', y: 321, width: 50, height: 20 },
    ]);
    // tp is 10 px under position (< 20): beside it, at 8 + 80 + 4; pending is 21 px from sl
    expect(Object.fromEntries(lefts)).toEqual({ position: 8, tp: 92, sl: 8, pending: 8 });
  });
});
