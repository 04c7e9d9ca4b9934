import { create } from 'zustand';
import { messages } from '../../../i18n/firstScreen';
import { readChoice, STORAGE_KEYS, writeString } from '../../../shared/storage';

export const PANEL_SIZES = ['minimized', 'medium', 'maximized'] as const;
export type PanelSize = (typeof PANEL_SIZES)[number];
export const PANEL_TABS = ['trade', 'wallet'] as const;
export type PanelTab = (typeof PANEL_TABS)[number];
export const TRADE_SUB_TABS = ['positions', 'orders', 'pending', 'orderLogs'] as const;
export type TradeSubTab = (typeof TRADE_SUB_TABS)[number];
/** The sub-tabs' labels, read when drawn (so in the language chosen). */
export const TRADE_SUB_TAB_LABELS: Readonly<Record<TradeSubTab, string>> = {
  get positions() {
    return messages.bottomPanel.positions;
  },
  get orders() {
    return messages.bottomPanel.orders;
  },
  get pending() {
    return messages.bottomPanel.pending;
  },
  get orderLogs() {
    return messages.bottomPanel.orderLogs;
  },
};

export type BottomPanelState = { size: PanelSize; tab: PanelTab; subTab: TradeSubTab };

/**
 * Tab click rule (spec section 4): from minimized a click opens the panel at medium on
 * that tab; a click on the active tab minimizes; a click on another tab switches to it.
 */
export function nextOnTabClick(state: BottomPanelState, tab: PanelTab): BottomPanelState {
  if (state.size === 'minimized') return { ...state, size: 'medium', tab };
  if (state.tab === tab) return { ...state, size: 'minimized' };
  return { ...state, tab };
}

/** Maximize from minimized or medium; restore from maximized to medium. */
export function nextOnMaximizeToggle(state: BottomPanelState): BottomPanelState {
  return { ...state, size: state.size === 'maximized' ? 'medium' : 'maximized' };
}

/** Collapse to minimized, or open a minimized panel at medium. */
export function nextOnCollapseToggle(state: BottomPanelState): BottomPanelState {
  return { ...state, size: state.size === 'minimized' ? 'medium' : 'minimized' };
}

export function readStoredBottomPanel(): BottomPanelState {
  return {
    size: readChoice(STORAGE_KEYS.bottomPanelSize, PANEL_SIZES, 'medium'),
    tab: readChoice(STORAGE_KEYS.bottomPanelTab, PANEL_TABS, 'trade'),
    subTab: readChoice(STORAGE_KEYS.bottomPanelSubTab, TRADE_SUB_TABS, 'positions'),
  };
}

export const useBottomPanelStore = create<BottomPanelState>(() => readStoredBottomPanel());

function apply(next: BottomPanelState): void {
  writeString(STORAGE_KEYS.bottomPanelSize, next.size);
  writeString(STORAGE_KEYS.bottomPanelTab, next.tab);
  writeString(STORAGE_KEYS.bottomPanelSubTab, next.subTab);
  useBottomPanelStore.setState(next);
}

const current = () => {
  const { size, tab, subTab } = useBottomPanelStore.getState();
  return { size, tab, subTab };
};

export function clickBottomTab(tab: PanelTab): void {
  apply(nextOnTabClick(current(), tab));
}

export function toggleBottomMaximize(): void {
  apply(nextOnMaximizeToggle(current()));
}

export function toggleBottomCollapse(): void {
  apply(nextOnCollapseToggle(current()));
}

export function setTradeSubTab(subTab: TradeSubTab): void {
  apply({ ...current(), subTab });
}
