/*
 * Row shapes of the trade tables, field for field from spec section 3. The trading issue
 * replaces them with the zod schemas of packages/domain when the calls exist.
 */

export type PositionRow = {
  uuid: string;
  symbol: string;
  /** 1 Buy, 2 Sell. */
  cmd: number;
  volume: number;
  settledVol: number;
  price: number;
  marketPrice: number;
  orderId: string;
  tp: number;
  sl: number;
  floatProfit: number;
  currency: string;
  commissionFee: number;
  storage: number;
  createdAt: string | number;
  closeType?: number;
};

export type SettledOrderRow = {
  symbol: string;
  tradeId: string;
  openCmd: number;
  closeCmd: number;
  openPrice: number;
  closePrice: number;
  settleVolume: number;
  /** 2 Full, 1 Partial, else Unknown. */
  isSettled: number;
  /** yyyymmdd. */
  settleDate: string | number;
  settleProfit: number;
  openAt: string | number;
  closeAt: string | number;
  openCommission: number;
  closeCommission: number;
  currency: string;
};

export type PendingOrderRow = {
  pId: string;
  symbol: string;
  cmd: number;
  volume: number;
  pendPrice: number;
  tp: number;
  sl: number;
  expireType: string;
};

export type OrderLogRow = {
  symbol: string;
  cmd: number;
  /** 1 Open, 2 Close. */
  actionType: number;
  volume: number;
  price: number;
  marketPrice: number;
  orderStatus: number;
  createdAt: string | number;
  transactTime: string | number;
  commissionFee: number;
  currency: string;
  tp: number;
  sl: number;
};
