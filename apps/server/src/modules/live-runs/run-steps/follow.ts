import {
  reconcile,
  wantedPositions,
  type Bar,
  type LiveRunOrderView,
  type ValidTrade,
} from '@ct/domain';
import { eq } from 'drizzle-orm';
import { traders, type TraderRow } from '../../../db/schema.ts';
import type { Followed } from '../evaluation.ts';
import { heldPositions } from '../store.ts';
import type { ClosedBar, HeldRun, LiveRunnerOptions } from './deps.ts';
import { closeHeld, openPosition } from './orders.ts';

/*
 * The follow step: the positions the strategy's trades want, reconciled with what the run
 * holds (the domain's `reconcile`), and the orders sent to get there (`orders.ts`).
 */

type FollowOptions = Pick<LiveRunnerOptions, 'db' | 'trading' | 'now' | 'log' | 'afterOrderSent'>;

/** What the strategy wants against what the run holds: the orders sent to get there. */
export async function follow(
  options: FollowOptions,
  run: HeldRun,
  closed: ClosedBar,
  bar: Bar,
  trades: ValidTrade[],
): Promise<Followed> {
  const { db, now } = options;
  const row = run.row;
  let error: string | null = null;
  const wanted = wantedPositions(trades);
  const orders: LiveRunOrderView[] = [];
  const fillsAt: number[] = [];
  const held = await heldPositions(db, row.id);
  const plan = reconcile({
    wanted,
    held,
    lotsMultiplier: row.lots,
    maxPositions: row.maxPositions,
    notBefore: row.startBarTime,
  });
  const trader = await traderOf(options, run);
  if (!trader) error = 'The trading account of this run no longer exists';
  else {
    // closes first: they free the margin the opens may need
    const sent = (order: LiveRunOrderView) => {
      const at = now();
      if (order.status === 'filled') fillsAt.push(at);
      orders.push({
        ...order,
        fill_delay_ms:
          order.status === 'filled' ? Math.max(0, Math.round(at - closed.closeMs)) : null,
      });
    };
    for (const position of plan.close) sent(await closeHeld(options, row, trader, position, bar));
    for (const want of plan.open) sent(await openPosition(options, row, trader, want, bar));
    const refused = orders.find((o) => o.status === 'rejected');
    if (refused) error = `Order refused: ${refused.message}`;
  }
  return { error, wanted, orders, fillsAt };
}

/** The run's trading account, read once per held run. */
async function traderOf(
  { db }: Pick<LiveRunnerOptions, 'db'>,
  run: HeldRun,
): Promise<TraderRow | null> {
  if (run.trader) return run.trader;
  const [row] = await db.select().from(traders).where(eq(traders.uuid, run.row.traderUuid));
  run.trader = row ?? null;
  return run.trader;
}
