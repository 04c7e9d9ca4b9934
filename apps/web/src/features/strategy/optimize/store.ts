import { create } from 'zustand';

export type OptimizeTab = 'setup' | 'current' | 'past';

/** The optimise dialog: whether it is open, its tab, and the optimisation it shows. */
export const useOptimizeStore = create<{
  open: boolean;
  /** The dialog's code was asked for once (it loads then, not with the editor). */
  requested: boolean;
  tab: OptimizeTab;
  current: string | null;
  starting: boolean;
}>(() => ({ open: false, requested: false, tab: 'setup', current: null, starting: false }));

export function openOptimize(): void {
  useOptimizeStore.setState({ open: true, requested: true });
}

export function closeOptimize(): void {
  useOptimizeStore.setState({ open: false });
}

export function setOptimizeTab(tab: OptimizeTab): void {
  useOptimizeStore.setState({ tab });
}

/** Test helper: the dialog as first opened. */
export function resetOptimizeStore(): void {
  useOptimizeStore.setState({
    open: false,
    requested: false,
    tab: 'setup',
    current: null,
    starting: false,
  });
}
