import { useEffect, useState } from 'react';
import { isChildFrame } from '../../realtime/connection';
import { openLogSocket, useRelayedLogs } from './logSocket';

/*
 * A run's place in the server's backtest queue, as its log tells it: while every slot is
 * taken the server sends '[backtest] Queued at position N: …' on the run's log socket (1 =
 * next to start), and any other line (the run started, printed, ended) means it no longer
 * waits. The editor's Run button shows the place while the run is on its way.
 *
 * Once it runs, a long run's log also says how far the strategy is through its bars
 * ('[backtest] Running: 45% of the bars'); the Run button shows that until the run ends.
 */

const QUEUED = /^\[backtest\] Queued at position (\d+):/;
const PROGRESS = /^\[backtest\] Running: (\d{1,3})% of the bars$/;
const STARTED = /^\[backtest\] Started /;
const ENDED = /^\[backtest\] (Finished in|Failed after) /;

/** How far the run is (percent) after `lines`, from before them (null: not known). */
export function runProgressAfter(before: number | null, lines: readonly string[]): number | null {
  let progress = before;
  for (const line of lines) {
    const match = PROGRESS.exec(line);
    if (match) progress = Math.min(100, Number(match[1]));
    else if (STARTED.test(line) || ENDED.test(line)) progress = null;
  }
  return progress;
}

/** The place after `lines`, from the place before them (null: not waiting). */
export function queuePositionAfter(before: number | null, lines: readonly string[]): number | null {
  let position = before;
  for (const line of lines) {
    if (line === '' || PROGRESS.test(line)) continue;
    const match = QUEUED.exec(line);
    position = match ? Number(match[1]) : null;
  }
  return position;
}

export type RunState = { position: number | null; progress: number | null };

const NOTHING: RunState = { position: null, progress: null };

/**
 * The queue place of the run of `clientId` (null when none waits) and how far it is (null
 * when not told), from its log: a socket of its own in the main window (open while mounted,
 * so that a place sent right after Run is not missed), the lines the main window forwards in
 * a child frame.
 */
export function useRunState(clientId: string): RunState {
  // the state is kept with the client id it belongs to: another id starts from nothing
  const [state, setState] = useState<{ clientId: string; run: RunState }>({
    clientId,
    run: NOTHING,
  });
  const child = isChildFrame();
  useEffect(() => {
    const take = (lines: readonly string[]) =>
      setState((s) => {
        const before = s.clientId === clientId ? s.run : NOTHING;
        return {
          clientId,
          run: {
            position: queuePositionAfter(before.position, lines),
            progress: runProgressAfter(before.progress, lines),
          },
        };
      });
    if (!child) return openLogSocket(clientId, { lines: take, state: () => undefined });
    let seen = useRelayedLogs.getState().byClient[clientId]?.lines.length ?? 0;
    return useRelayedLogs.subscribe((relayed) => {
      const lines = relayed.byClient[clientId]?.lines ?? [];
      if (lines.length < seen) seen = 0; // the log was cleared
      take(lines.slice(seen));
      seen = lines.length;
    });
  }, [clientId, child]);
  return state.clientId === clientId ? state.run : NOTHING;
}
