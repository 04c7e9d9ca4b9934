import { useEffect, useState } from 'react';
import { isChildFrame } from '../../realtime/connection';
import { openLogSocket, useRelayedLogs } from './logSocket';

/*
 * A run's place in the server's backtest queue, as its log tells it: while every slot is
 * taken the server sends '[backtest] Queued at position N: …' on the run's log socket (1 =
 * next to start), and any other line (the run started, printed, ended) means it no longer
 * waits. The editor's Run button shows the place while the run is on its way.
 */

const QUEUED = /^\[backtest\] Queued at position (\d+):/;

/** The place after `lines`, from the place before them (null: not waiting). */
export function queuePositionAfter(before: number | null, lines: readonly string[]): number | null {
  let position = before;
  for (const line of lines) {
    if (line === '') continue;
    const match = QUEUED.exec(line);
    position = match ? Number(match[1]) : null;
  }
  return position;
}

/**
 * The queue place of the run of `clientId` (null when none waits), from its log: a socket
 * of its own in the main window (open while mounted, so that a place sent right after Run
 * is not missed), the lines the main window forwards in a child frame.
 */
export function useQueuePosition(clientId: string): number | null {
  // the place is kept with the client id it belongs to: another id starts from none
  const [queued, setQueued] = useState<{ clientId: string; position: number | null }>({
    clientId,
    position: null,
  });
  const child = isChildFrame();
  useEffect(() => {
    const take = (lines: readonly string[]) =>
      setQueued((q) => ({
        clientId,
        position: queuePositionAfter(q.clientId === clientId ? q.position : null, lines),
      }));
    if (!child) return openLogSocket(clientId, { lines: take, state: () => undefined });
    let seen = useRelayedLogs.getState().byClient[clientId]?.lines.length ?? 0;
    return useRelayedLogs.subscribe((state) => {
      const lines = state.byClient[clientId]?.lines ?? [];
      if (lines.length < seen) seen = 0; // the log was cleared
      take(lines.slice(seen));
      seen = lines.length;
    });
  }, [clientId, child]);
  return queued.clientId === clientId ? queued.position : null;
}
