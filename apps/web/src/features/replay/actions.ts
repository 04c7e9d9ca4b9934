import type { Period } from '@ct/domain';
import { replay as messages } from '../../i18n/defaults/replay';
import { notify } from '../../shared/notify';
import { queryClient } from '../../shared/queryClient';
import { failureDetail } from '../strategy';
import {
  fetchReplay,
  sendReplayOrder,
  startReplay,
  stepReplay,
  type ReplayOrderBody,
  type ReplayView,
} from './api';

/*
 * The replay's user operations, one plain function each: every answer of the server is the
 * session as it now is, written into the query cache under `replayKey(id)`; a refusal is
 * shown with the server's `detail` and leaves the cache as it was.
 */

const m = messages.replay;

export const replayKey = (id: string) => ['replay', id] as const;

function put(view: ReplayView): ReplayView {
  queryClient.setQueryData(replayKey(view.id), view);
  return view;
}

function refuse(error: unknown): null {
  notify.error(failureDetail(error) ?? m.failed);
  return null;
}

/** Starts a session at the bar starting at `start` (UTC ms); the session, or null. */
export async function beginReplay(input: {
  symbol: string;
  period: Period;
  start: number;
  strategyName: string | null;
}): Promise<ReplayView | null> {
  try {
    const started = await startReplay({
      symbol_id: input.symbol,
      period: input.period,
      start: Math.floor(input.start / 1000),
      ...(input.strategyName ? { strategy_name: input.strategyName } : {}),
    });
    return put(await fetchReplay(started.id));
  } catch (error) {
    return refuse(error);
  }
}

/** Moves the cursor `bars` bars (negative: back). */
export async function stepReplayBy(id: string, bars: number): Promise<ReplayView | null> {
  try {
    return put(await stepReplay(id, bars));
  } catch (error) {
    return refuse(error);
  }
}

/**
 * Sends an order (market, limit, close, cancel, TP/SL) of the trading panel to the session's
 * account; the caller shows the outcome: `detail` is the server's refusal.
 */
export async function orderReplay(
  id: string,
  body: ReplayOrderBody,
): Promise<{ ok: true; view: ReplayView } | { ok: false; detail: string | null }> {
  try {
    return { ok: true, view: put(await sendReplayOrder(id, body)) };
  } catch (error) {
    return { ok: false, detail: failureDetail(error) };
  }
}

/** Sends an order (market, limit, close…) to the session's account. */
export async function sendOrder(id: string, body: ReplayOrderBody): Promise<ReplayView | null> {
  try {
    return put(await sendReplayOrder(id, body));
  } catch (error) {
    return refuse(error);
  }
}
