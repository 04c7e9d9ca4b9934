import { SHARED_ACTIONS, type PriceUpdateMessage } from '@ct/domain';
import { create } from 'zustand';
import { useChartGridStore } from '../shared/chartGrid';
import { useThemeStore } from '../shared/theme';
import {
  clearChartTradeAction,
  emitChartTradeAction,
  useChartTradeStore,
} from '../shared/tradeAction';
import { isChildFrame, useConnectionStore } from './connection';
import { frameActions } from './frameActions';
import { installFrameBridge, onPriceUpdateMessage, postFrameMessage } from './frameBridge';
import { shareLiveWithFrames } from './frameLive';
import { setBatchSettings, setThrottleSettings, useLiveSettingsStore } from './settings';
import { registerSharedState, sharedState } from './sharedState';

/** Whether the phone trading modal shows (spec section 3, a shared item). */
export const useMobileModalStore = create<{ visible: boolean }>(() => ({ visible: false }));

/** The newest PRICE_UPDATE of the performance page per symbol, with how many arrived. */
export const usePriceUpdateStore = create<{
  bySymbol: Record<string, PriceUpdateMessage>;
  received: number;
}>(() => ({ bySymbol: {}, received: 0 }));

/** Calls `listener` when a slice of a zustand store changes (compared with Object.is). */
function follow<S, V>(
  store: { getState(): S; subscribe(l: (s: S, p: S) => void): () => void },
  select: (state: S) => V,
) {
  return (listener: () => void) =>
    store.subscribe((state, previous) => {
      if (!Object.is(select(state), select(previous))) listener();
    });
}

/** The shared items this tier knows: everything but the account (features/auth). */
function registerBuiltInItems(): (() => void)[] {
  return [
    registerSharedState('theme', {
      get: () => useThemeStore.getState().mode,
      // another window's theme is shown, not stored as this window's choice
      set: (mode) => useThemeStore.setState({ mode }),
      subscribe: follow(useThemeStore, (s) => s.mode),
    }),
    registerSharedState('chartTradeAction', {
      get: () => useChartTradeStore.getState().action,
      set: (action) => (action ? emitChartTradeAction(action) : clearChartTradeAction()),
      subscribe: follow(useChartTradeStore, (s) => s.action),
    }),
    registerSharedState('activeChart', {
      get: () => useChartGridStore.getState().activeChartId,
      set: (id) => {
        if (id !== null) useChartGridStore.setState({ activeChartId: id });
      },
      subscribe: follow(useChartGridStore, (s) => s.activeChartId),
    }),
    registerSharedState('mobileModalVisible', {
      get: () => useMobileModalStore.getState().visible,
      set: (visible) => useMobileModalStore.setState({ visible }),
      subscribe: follow(useMobileModalStore, (s) => s.visible),
    }),
    registerSharedState('throttle', {
      get: () => useLiveSettingsStore.getState().throttle,
      set: (throttle) => setThrottleSettings(throttle),
      subscribe: follow(useLiveSettingsStore, (s) => s.throttle),
    }),
    registerSharedState('batch', {
      get: () => useLiveSettingsStore.getState().batch,
      set: (batch) => setBatchSettings(batch),
      subscribe: follow(useLiveSettingsStore, (s) => s.batch),
    }),
    registerSharedState('connectionStatus', {
      get: () => useConnectionStore.getState().status,
      set: (status) =>
        useConnectionStore.setState((s) => ({
          status,
          connectedOnce: s.connectedOnce || status === 'connected',
        })),
      subscribe: follow(useConnectionStore, (s) => s.status),
      mainOnly: true,
    }),
  ];
}

let stopSharing: (() => void) | null = null;

/**
 * Starts what a window shares with the others (spec sections 4 and 7): the message bridge,
 * the live prices for frames, the shared actions, the shared state and, in a child frame,
 * the PRICE_UPDATE messages of the performance page and the goodbye when it unloads.
 * Idempotent; returns the stop (tests).
 */
export function startFrameSharing(): () => void {
  if (stopSharing) return stopSharing;
  installFrameBridge();
  const stops = [
    ...registerBuiltInItems(),
    shareLiveWithFrames(),
    frameActions.listen(),
    sharedState.start(),
    onPriceUpdateMessage((message, event) => {
      if (!isChildFrame() || event.source !== window.parent) return;
      usePriceUpdateStore.setState((s) => ({
        bySymbol: { ...s.bySymbol, [message.symbol]: message },
        received: s.received + 1,
      }));
    }),
  ];
  if (isChildFrame()) {
    const leave = () =>
      postFrameMessage(window.parent, {
        type: 'cw_action',
        action: SHARED_ACTIONS.frameLeave,
        payload: {},
      });
    window.addEventListener('pagehide', leave);
    stops.push(() => window.removeEventListener('pagehide', leave));
  }
  stopSharing = () => {
    for (const stop of stops) stop();
    stopSharing = null;
  };
  return stopSharing;
}
