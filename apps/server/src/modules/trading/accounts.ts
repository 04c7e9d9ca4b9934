import { startingBalance } from '@ct/domain';
import type { TraderRow } from '../../db/schema.ts';

/** How a trader's paper account starts when it is first used: the balance of its level. */
export function accountInit(trader: Pick<TraderRow, 'level'>, nowMs: number) {
  return { startingBalance: startingBalance(trader.level), nowMs };
}
