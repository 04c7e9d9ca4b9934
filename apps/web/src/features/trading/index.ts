// The trading feature's public face: what other features may import (apps/web/boundaries.js).
// Its dialogs and phone runtime load on demand: lazy.ts.
export { AccountBar } from './account/AccountBar';
export { usePositionTotals, type PositionTotals } from './account/totals';
export { onAccountEvent, useAccountLiveUpdates } from './accountLive';
export {
  modifyPendingOrder,
  updateTpsl,
  type EditableOrder,
  type PendingChange,
  type TpslEdit,
} from './actions';
export { fetchOrderLogs } from './api';
export {
  closeEditOrder,
  editableOrderOf,
  openCancelPending,
  openClosePosition,
  openEditOrder,
  useTradingDialogs,
} from './dialogs';
export { EditOrderPanel } from './EditOrderPanel';
export { formatTriggerLevel } from './format';
export { useFollowPositionQuotes, usePositionQuote, useWatchSymbols } from './positionQuotes';
export {
  TRADE_PAGE_SIZE,
  tradingKeys,
  usePagedTradeList,
  useTradeList,
  type PagedListState,
} from './queries';
export { SideText } from './SideText';
export { TradingDialogs } from './TradingDialogs';
export {
  chartTradingTarget,
  isTargetAccount,
  setChartTradingTarget,
  TARGET_ACCOUNT_PREFIX,
  targetOfAccount,
  useTradingTarget,
  type PlaceOrderInput,
  type TradingTarget,
} from './target';
export { TradingTabs } from './TradingTabs';
