import { create } from 'zustand';

/*
 * The live runs' UI state (server state is in the query cache, see `queries.ts`): which
 * modal is open, the run shown in the panel, its tab and its evaluations' page.
 */
export type LiveRunsUi = {
  startOpen: boolean;
  panelOpen: boolean;
  /** The run whose evaluations and comparison the panel shows. */
  selectedId: string | null;
  tab: 'evaluations' | 'comparison';
  /** 1-based page of the selected run's evaluations. */
  evaluationPage: number;
};

function initialUi(): LiveRunsUi {
  return {
    startOpen: false,
    panelOpen: false,
    selectedId: null,
    tab: 'evaluations',
    evaluationPage: 1,
  };
}

export const useLiveRunsUi = create<LiveRunsUi>(initialUi);

/** Shows a run in the panel (its first page of evaluations). */
export function selectRun(id: string | null): void {
  useLiveRunsUi.setState({ selectedId: id, evaluationPage: 1 });
}

/** Test helper: every modal closed, no run shown. */
export function resetLiveRunsUi(): void {
  useLiveRunsUi.setState(initialUi());
}
