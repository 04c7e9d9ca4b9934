import { ACTION, type AccountEvent } from '@ct/domain';
import type { AccountFact } from './journal.ts';

/**
 * The events an account's pages hear (its private channel) of what a command changed, in
 * the order it changed them: a market order that filled opened a position; a pending
 * order's acceptance, fill, cancel, expiry or refusal at fill time is its pending event; a
 * settlement closed (part of) a position; new levels changed its TP/SL; a pending order got
 * a new price (or TP/SL). Closing orders, Modify rows and orders refused when placed are in
 * the order log only.
 */
export function accountEventsOf(facts: readonly AccountFact[]): AccountEvent[] {
  const events: AccountEvent[] = [];
  for (const fact of facts) {
    const event = accountEventOf(fact);
    if (event) events.push(event);
  }
  return events;
}

const idText = (id: number | null): string => String(id ?? '');

function accountEventOf(fact: AccountFact): AccountEvent | null {
  if (fact.kind === 'settled') {
    const { position, settlement } = fact;
    return {
      type: 'position_closed',
      uuid: position.uuid,
      symbol: position.symbol,
      at: fact.at,
      orderId: String(position.id),
      tradeId: String(settlement.id),
      volume: settlement.settleVolume,
      full: position.status === 'closed',
      closeReason: settlement.closeReason,
    };
  }
  if (fact.kind === 'protectionChanged') {
    const { position } = fact;
    return {
      type: 'tpsl_changed',
      uuid: position.uuid,
      symbol: position.symbol,
      at: fact.at,
      orderId: String(position.id),
      tp: position.tp,
      sl: position.sl,
    };
  }
  if (fact.kind === 'pendingChanged') {
    const { pending } = fact;
    return {
      type: 'pending_modified',
      uuid: pending.uuid,
      symbol: pending.symbol,
      at: fact.at,
      pId: String(pending.id),
      pendPrice: pending.pendPrice,
      tp: pending.tp,
      sl: pending.sl,
    };
  }
  const e = fact.event;
  const base = { uuid: e.uuid, symbol: e.symbol ?? '', at: e.at };
  const opened = e.fromState === 'submitted';
  switch (e.type) {
    case 'OrderAccepted':
      return { type: 'pending_added', ...base, pId: idText(e.pendingId) };
    case 'OrderFilled':
      if (!opened) {
        return {
          type: 'pending_filled',
          ...base,
          pId: idText(e.pendingId),
          orderId: idText(e.positionId),
        };
      }
      // A market order that opened a position (a closing order's fill is its settlement, a
      // Modify row's is the protectionChanged or pendingChanged fact of the same command).
      if (e.order?.actionType !== ACTION.open) return null;
      return { type: 'position_opened', ...base, orderId: idText(e.positionId), pId: null };
    case 'OrderCanceled':
      return { type: 'pending_canceled', ...base, pId: idText(e.pendingId) };
    case 'OrderExpired':
      return { type: 'pending_expired', ...base, pId: idText(e.pendingId) };
    case 'OrderRejected':
      if (opened) return null;
      return { type: 'pending_rejected', ...base, pId: idText(e.pendingId), message: e.message };
    default:
      return null;
  }
}
