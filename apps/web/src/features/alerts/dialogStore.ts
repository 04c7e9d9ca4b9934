import { create } from 'zustand';

/** The "Add alert" dialog: the instrument, its tick and the price it opens with. */
export type AlertDraft = { symbol: string; price: number; tick: number };

export const useAlertDialog = create<{ draft: AlertDraft | null }>(() => ({ draft: null }));

export function openAddAlert(draft: AlertDraft): void {
  useAlertDialog.setState({ draft });
}

export function closeAddAlert(): void {
  useAlertDialog.setState({ draft: null });
}
