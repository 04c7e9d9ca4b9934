import type { PendingView, PositionView } from '@ct/domain';
import { describe, expect, it, vi } from 'vitest';
import type { Outcome } from '../../../shared/outcome';
import type { EditableOrder, PendingChange, TpslEdit } from '../../trading/actions';
import { buildPending, buildPosition } from '../../trading/testSupport';
import { tradeLinesOf } from './model';
import { arrangeLabels, TradesView, type TradesViewDeps } from './view';

/*
 * Dropping a dragged TP or SL: refused with the rule's message, or confirmed and saved with
 * the Edit Order panel's action, the other level kept. Dropping a pending order's line: the
 * ticket's limit rule, its TP/SL moved along, saved with the pending change call.
 */

const colors = { up: 'green', down: 'red' };

function setUp(
  position: PositionView | null,
  outcome: Outcome = { success: true, message: 'ok' },
  bid = 50_000,
  pending: PendingView | null = null,
) {
  const save = vi.fn<(order: EditableOrder, edit: TpslEdit) => Promise<Outcome>>(() =>
    Promise.resolve(outcome),
  );
  const savePending = vi.fn<(p: PendingView, change: PendingChange) => Promise<Outcome>>(() =>
    Promise.resolve(outcome),
  );
  const error = vi.fn<(message: string) => void>();
  const deps: TradesViewDeps = {
    quote: () => ({ bid, ask: bid + 0.5 }),
    save,
    savePending,
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
  const update = (p: PositionView | null, o: PendingView | null = pending) =>
    view.update({
      lines: tradeLinesOf(p ? [p] : [], o ? [o] : [], 'BTCUSDT'),
      positions: new Map(p ? [[p.orderId, p]] : []),
      pendings: new Map(o ? [[o.pId, o]] : []),
      symbol: 'BTCUSDT',
      tick: 0.1,
      colors,
    });
  update(position);
  return { view, save, savePending, error, update };
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

// A buy limit at 49 000 with TP 49 500 and SL 48 500; the ask is 50 000.5 (tick 0.1).
const pending = buildPending({ pId: '21', pendPrice: 49_000, tp: 49_500, sl: 48_500 });

describe('dropping a pending order’s line', () => {
  it('asks for confirmation, then saves the new price with TP and SL moved along', async () => {
    const { view, savePending, error } = setUp(null, undefined, 50_000, pending);
    view.drop('pending:21', 48_000);
    expect(view.state.getState().confirm).toEqual({
      id: 'pending:21',
      kind: 'pending',
      price: 48_000,
    });
    await view.confirm();
    expect(savePending).toHaveBeenCalledTimes(1);
    const [order, change] = savePending.mock.calls[0]!;
    expect(order.pId).toBe('21');
    // −1000: TP 49 500 → 48 500, SL 48 500 → 47 500
    expect(change).toEqual({ price: 48_000, tp: 48_500, sl: 47_500 });
    expect(error).not.toHaveBeenCalled();
    expect(view.state.getState()).toMatchObject({ confirm: null, saving: false });
  });

  it('refuses a price outside the ticket’s band around the ask with its message', () => {
    const { view, savePending, error } = setUp(null, undefined, 50_000, pending);
    // below the ask 50 000.5: 0.8× = 40 000.4 to 0.999× = 49 950.4995 → 49 950.4
    view.drop('pending:21', 49_990);
    expect(error).toHaveBeenCalledWith(
      'Limit price must be between 40000.4 and 49950.4 (below the market) or between 50050.6 and 60000.6 (above the market)',
    );
    expect(view.state.getState().confirm).toBeNull();
    expect(savePending).not.toHaveBeenCalled();
  });

  it('refuses a move that would put its TP out of range', () => {
    // a TP at the bottom of its range: 1.001 × 49 000 = 49 049
    const tight = buildPending({ pId: '21', pendPrice: 49_000, tp: 49_049, sl: 0 });
    const { view, error } = setUp(null, undefined, 50_000, tight);
    // at 49 900 the TP moves to 49 949, below 1.001 × 49 900 = 49 949.9
    view.drop('pending:21', 49_900);
    expect(error).toHaveBeenCalledWith('TP price must be between 49949.9 and 59880.0');
    expect(view.state.getState().confirm).toBeNull();
  });

  it('shows the server’s refusal and leaves the question', async () => {
    const { view, error } = setUp(
      null,
      { success: false, message: 'Limit price must be between 40100.0 and 50049.9' },
      50_000,
      pending,
    );
    view.drop('pending:21', 48_000);
    await view.confirm();
    expect(error).toHaveBeenCalledWith('Limit price must be between 40100.0 and 50049.9');
    expect(view.state.getState().confirm).toBeNull();
  });

  it('moves with the keys like a TP or SL, and a drop at its own price asks nothing', () => {
    const { view, savePending } = setUp(null, undefined, 50_000, pending);
    view.key('pending:21', 'ArrowDown', true);
    expect(view.state.getState().dragging).toEqual({ id: 'pending:21', price: 48_999 });
    view.key('pending:21', 'Enter');
    expect(view.state.getState().confirm).toEqual({
      id: 'pending:21',
      kind: 'pending',
      price: 48_999,
    });
    view.dismiss();
    view.drop('pending:21', 49_000);
    expect(view.state.getState().confirm).toBeNull();
    expect(savePending).not.toHaveBeenCalled();
  });

  it('a pending order filled or canceled meanwhile ends the question', () => {
    const { view, update } = setUp(null, undefined, 50_000, pending);
    view.drop('pending:21', 48_000);
    update(null, null);
    expect(view.state.getState().confirm).toBeNull();
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
