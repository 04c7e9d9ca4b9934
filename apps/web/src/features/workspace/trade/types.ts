/*
 * Row shapes of the trade tables: the zod-inferred views of packages/domain (spec section
 * 3: Position, Settled order, Pending order, Order log), as the trading calls answer them.
 */
export type {
  OrderLogView as OrderLogRow,
  PendingView as PendingOrderRow,
  PositionView as PositionRow,
  SettleView as SettledOrderRow,
} from '@ct/domain';
