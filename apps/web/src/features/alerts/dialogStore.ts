import type { IndicatorKind, Period } from '@ct/domain';
import { create } from 'zustand';

/** One of the chart's indicators as an alert names it: its kind, parameters and label. */
export type IndicatorChoice = {
  kind: IndicatorKind;
  params: Record<string, number>;
  /** 'RSI 14', 'SMA 20'… */
  label: string;
};

/**
 * The "Add alert" dialog: the instrument, its tick, the price it opens with and the chart's
 * period; from a drawing's menu the line it follows, from an indicator's menu the indicator
 * and the chart's other indicators (what it may cross).
 */
export type AlertDraft = {
  symbol: string;
  price: number;
  tick: number;
  period?: Period;
  drawing?: { id: number; kind: 'horizontal' | 'trend' };
  indicator?: { chosen: IndicatorChoice; others: readonly IndicatorChoice[] };
};

export const useAlertDialog = create<{ draft: AlertDraft | null }>(() => ({ draft: null }));

export function openAddAlert(draft: AlertDraft): void {
  useAlertDialog.setState({ draft });
}

export function closeAddAlert(): void {
  useAlertDialog.setState({ draft: null });
}
