import { CLOSE_REASON, sideOfCmd, type NewNotification } from '@ct/domain';
import { rawQuery } from '../../db/raw.ts';
import type { Db } from '../../db/types.ts';
import type { AccountFact } from '../trading/journal.ts';
import {
  publishNotifications,
  recordNotificationIn,
  type NotificationContext,
  type RecordedNotification,
} from './service.ts';

/** A notification of a trading account's change, before its side and volume are read. */
type TradingNote = { traderUuid: string; input: NewNotification; positionId: number | null };

const CLOSE_KINDS = {
  [CLOSE_REASON.takeProfit]: 'take_profit',
  [CLOSE_REASON.stopLoss]: 'stop_loss',
  [CLOSE_REASON.stopOut]: 'stop_out',
} as const;

/**
 * What the user is told of a trigger engine command's facts: a pending order that filled or
 * was refused when it triggered, a position closed by its take-profit, stop-loss or a
 * stop-out. Refs name the order and the settlement, so each is told once.
 */
export function tradingNotesOf(facts: readonly AccountFact[]): TradingNote[] {
  const notes: TradingNote[] = [];
  for (const fact of facts) {
    if (fact.kind === 'settled') {
      const { position, settlement } = fact;
      const kind = CLOSE_KINDS[settlement.closeReason as keyof typeof CLOSE_KINDS];
      if (!kind) continue;
      notes.push({
        traderUuid: position.uuid,
        positionId: null,
        input: {
          kind,
          ref: `settlement:${settlement.id}`,
          params: {
            symbol: position.symbol,
            side: sideOfCmd(position.cmd),
            volume: settlement.settleVolume,
            price: settlement.closePrice,
            profit: settlement.accountProfit,
            order_id: String(position.id),
          },
        },
      });
      continue;
    }
    if (fact.kind !== 'order') continue;
    const e = fact.event;
    // a pending order's later events: the fill and the refusal when it triggered
    if (e.fromState === 'submitted' || e.pendingId === null) continue;
    if (e.type === 'OrderFilled') {
      notes.push({
        traderUuid: e.uuid,
        positionId: e.positionId,
        input: {
          kind: 'pending_filled',
          ref: `pending:${e.pendingId}:filled`,
          params: {
            symbol: e.symbol ?? '',
            price: e.price,
            pending_id: String(e.pendingId),
            order_id: e.positionId === null ? null : String(e.positionId),
          },
        },
      });
    } else if (e.type === 'OrderRejected') {
      notes.push({
        traderUuid: e.uuid,
        positionId: null,
        input: {
          kind: 'pending_rejected',
          ref: `pending:${e.pendingId}:rejected`,
          params: { symbol: e.symbol ?? '', pending_id: String(e.pendingId), message: e.message },
        },
      });
    }
  }
  return notes;
}

/**
 * Records the notifications of a trigger engine command in its own transaction (`tx`), so
 * they commit with the fill or close they tell of, or not at all; returns what publishes
 * them, to run after the commit.
 */
export async function recordTradingFacts(
  ctx: NotificationContext,
  tx: Db,
  facts: readonly AccountFact[],
): Promise<() => void> {
  const recorded: RecordedNotification[] = [];
  for (const note of tradingNotesOf(facts)) {
    let input = note.input;
    if (note.positionId !== null) {
      // the position the fill opened (in this transaction): its side and volume
      const [position] = await rawQuery(tx, 'select cmd, volume from positions where id = $1', [
        note.positionId,
      ]);
      if (position) {
        input = {
          ...input,
          params: {
            ...input.params,
            side: sideOfCmd(Number(position.cmd)),
            volume: Number(position.volume),
          },
        };
      }
    }
    const one = await recordNotificationIn(ctx, tx, { traderUuid: note.traderUuid }, input);
    if (one) recorded.push(one);
  }
  return () => publishNotifications(ctx, recorded);
}

/**
 * Records the margin warning of a trading account in the margin watch's transaction (`tx`,
 * with the flip of its flag, so a crossing below is told once); returns what publishes it.
 * The ref names the account and the moment, so the same crossing recorded twice keeps one.
 */
export async function recordMarginWarning(
  ctx: NotificationContext,
  tx: Db,
  uuid: string,
  warning: { level: number; warningLevel: number; at: number },
): Promise<() => void> {
  const one = await recordNotificationIn(
    ctx,
    tx,
    { traderUuid: uuid },
    {
      kind: 'margin_warning',
      ref: `margin:${uuid}:${warning.at}`,
      params: {
        level: Math.round(warning.level * 100) / 100,
        warning_level: warning.warningLevel,
      },
    },
  );
  return () => publishNotifications(ctx, one ? [one] : []);
}
