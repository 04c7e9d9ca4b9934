/**
 * Codes and messages of the trading calls beyond the general ones (api/codes.ts). Rule
 * messages of quantities and prices live next to their rules (quantity.ts, price-rules.ts).
 */

/** The order or position is no longer in a state that allows the request. */
export const CODE_CONFLICT = 40900;
/** The venue refused the order: market closed, no quote, not enough free margin. */
export const CODE_ORDER_REJECTED = 42200;

export const TRADING_MESSAGES = {
  unknownSymbol: (symbol: string) => `Unknown symbol: ${symbol}`,
  marketClosed: (symbol: string) => `The market for ${symbol} is closed`,
  noQuote: (symbol: string) => `No quote available for ${symbol}`,
  insufficientMargin: (required: string, free: string, currency: string) =>
    `Insufficient margin: the order needs ${required} ${currency} (margin and commission), free margin is ${free} ${currency}`,
  orderNotFound: (orderId: string) => `Order not found: ${orderId}`,
  pendingNotFound: (pId: string) => `Pending order not found: ${pId}`,
  positionClosed: (orderId: string) => `Order ${orderId} is already closed`,
  pendingNotWorking: (pId: string, status: string) => `Pending order ${pId} is already ${status}`,
  clientOrderIdReused: (clientOrderId: string) =>
    `clientOrderId ${clientOrderId} was already used for a different request`,
} as const;

/** `msg` of the successful mutations (the spec's success texts where it has one). */
export const TRADING_SUCCESS = {
  orderFilled: 'Order filled',
  pendingPlaced: 'Pending order placed',
  tpslUpdated: 'Take Profit / Stop Loss updated successfully',
  positionClosed: 'Position closed successfully',
  pendingCanceled: 'Pending order canceled successfully',
  /** Ours: POST /trading/order/pending/modify. */
  pendingModified: 'Pending order updated successfully',
} as const;
