/** The chart key of the standalone /chart page (the grid's slots are '0'…'3'). */
export const CHART_PAGE_KEY = 'page';

/**
 * The key a chart's settings are saved under: its grid slot for the workspace cells
 * ('chart-1' → '0' … 'chart-4' → '3'), 'page' for the /chart page, else the id itself.
 */
export function chartKeyOf(chartId: string): string {
  const slot = /^chart-(\d+)$/.exec(chartId);
  if (slot) return String(Number(slot[1]) - 1);
  if (chartId === 'chart-page') return CHART_PAGE_KEY;
  return chartId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40) || CHART_PAGE_KEY;
}
