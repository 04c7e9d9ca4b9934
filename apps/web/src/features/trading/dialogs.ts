import {
  availableVolume,
  sideOfCmd,
  tickOfSymbol,
  type PendingView,
  type PositionView,
} from '@ct/domain';
import { create } from 'zustand';
import { useInstrumentStore } from '../../market/instruments';
import type { EditableOrder } from './actions';
import { isTargetAccount } from './target';

/*
 * Which trading dialog is open, outside React: the Edit and Close buttons, the narrow
 * row menu and tests open them the same way.
 */

type DialogState = {
  /** The order of the Edit Order panel (the edit-order action), or null. */
  editOrder: EditableOrder | null;
  /** Bumped on every opening, so re-opening the same order starts afresh. */
  editSeq: number;
  closePosition: PositionView | null;
  cancelPending: PendingView | null;
};

export const useTradingDialogs = create<DialogState>(() => ({
  editOrder: null,
  editSeq: 0,
  closePosition: null,
  cancelPending: null,
}));

/** The edit panel's view of a position (spec section 3, Order (edit panel)). */
export function editableOrderOf(position: PositionView): EditableOrder {
  return {
    orderId: position.orderId,
    symbol: position.symbol,
    side: sideOfCmd(position.cmd),
    availableVolume: availableVolume(position),
    totalVolume: position.volume,
    openPrice: position.price,
    tp: position.tp,
    sl: position.sl,
    tick: tickOfSymbol(useInstrumentStore.getState().symbols[position.symbol]),
    ...(isTargetAccount(position.uuid) ? { account: position.uuid } : {}),
  };
}

/** Starts the edit-order action: the Edit Order panel opens for the position. */
export function openEditOrder(position: PositionView): void {
  useTradingDialogs.setState((s) => ({
    editOrder: editableOrderOf(position),
    editSeq: s.editSeq + 1,
  }));
}

/** Ends the edit-order action (Close, Cancel or a successful save). */
export function closeEditOrder(): void {
  useTradingDialogs.setState({ editOrder: null });
}

export function openClosePosition(position: PositionView): void {
  useTradingDialogs.setState({ closePosition: position });
}

export function dismissClosePosition(): void {
  useTradingDialogs.setState({ closePosition: null });
}

export function openCancelPending(pending: PendingView): void {
  useTradingDialogs.setState({ cancelPending: pending });
}

export function dismissCancelPending(): void {
  useTradingDialogs.setState({ cancelPending: null });
}
