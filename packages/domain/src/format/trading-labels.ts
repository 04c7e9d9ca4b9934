/** Side of a position, order or log row: cmd 1 is Buy, 2 is Sell, anything else Unknown. */
export function sideLabel(cmd: number): 'Buy' | 'Sell' | 'Unknown' {
  if (cmd === 1) return 'Buy';
  if (cmd === 2) return 'Sell';
  return 'Unknown';
}

/**
 * Order log action: actionType 1 is Open, 2 is Close, 3 (our Modify) is 'Modify Order' on a
 * row of a pending order (`pending`: the row names one) and 'Modify TP/SL' on a position's;
 * anything else Unknown.
 */
export function orderActionLabel(
  actionType: number,
  pending = false,
): 'Open' | 'Close' | 'Modify TP/SL' | 'Modify Order' | 'Unknown' {
  if (actionType === 1) return 'Open';
  if (actionType === 2) return 'Close';
  if (actionType === 3) return pending ? 'Modify Order' : 'Modify TP/SL';
  return 'Unknown';
}

const ORDER_STATUS_LABELS = ['Pending', 'Rejected', 'Filled', 'Partially Filled', 'Canceled'];

/** Order log status (spec section 4): 0 Pending, 1 Rejected, 2 Filled, 3 Partially Filled, 4 Canceled, other Unknown. */
export function orderStatusLabel(status: number): string {
  return (Number.isInteger(status) ? ORDER_STATUS_LABELS[status] : undefined) ?? 'Unknown';
}

/** Settlement of a settled order: isSettled 2 is Full, 1 Partial, anything else Unknown. */
export function settlementLabel(isSettled: number): 'Full' | 'Partial' | 'Unknown' {
  if (isSettled === 2) return 'Full';
  if (isSettled === 1) return 'Partial';
  return 'Unknown';
}

const CLOSE_REASON_LABELS = ['Manual', 'Take profit', 'Stop loss', 'Stop out', 'Strategy'] as const;

/**
 * Why a settlement closed its volume: closeReason 0 Manual (the trader), 1 Take profit,
 * 2 Stop loss, 3 Stop out, 4 Strategy (a live run's strategy), anything else Unknown. The order log's message uses the same
 * texts for the automatic closes.
 */
export function closeReasonLabel(reason: number): (typeof CLOSE_REASON_LABELS)[number] | 'Unknown' {
  return (Number.isInteger(reason) ? CLOSE_REASON_LABELS[reason] : undefined) ?? 'Unknown';
}

/** An 8-digit yyyymmdd settle date as yyyy-mm-dd; any other value is returned as text. */
export function formatSettleDate(value: string | number): string {
  const text = String(value);
  if (!/^\d{8}$/.test(text)) return text;
  return `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`;
}
