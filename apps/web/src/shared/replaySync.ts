import { create } from 'zustand';

/*
 * Synchronised bar replay (docs/architecture.md, "Bar replay"): the chart whose replay bar
 * has "Sync charts" on publishes the moment its replay has reached; every other chart of the
 * grid shows only the bars closed by then. One replay leads at a time.
 */

export type ReplaySync = {
  /** The leading chart's id. */
  chartId: string;
  /** The moment (UTC ms) the replay has reached: the close of the last shown bar or step. */
  moment: number;
};

export const useReplaySync = create<{ sync: ReplaySync | null }>(() => ({ sync: null }));

/** The leading chart publishes its replay's moment (another leader is replaced). */
export function leadReplay(chartId: string, moment: number): void {
  const current = useReplaySync.getState().sync;
  if (current?.chartId === chartId && current.moment === moment) return;
  useReplaySync.setState({ sync: { chartId, moment } });
}

/** The chart stops leading (sync off, exit); other leaders stay. */
export function stopLeading(chartId: string): void {
  if (useReplaySync.getState().sync?.chartId === chartId) useReplaySync.setState({ sync: null });
}
