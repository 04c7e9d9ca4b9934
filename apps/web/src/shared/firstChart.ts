import { lazy } from 'react';

/*
 * The chart comes first. The workspace's panels around it (the trade tables, the order
 * ticket, the assistant) are chunks of their own that start loading once the first chart is
 * drawn, or after FIRST_CHART_WAIT_MS when no chart draws by then (a slow history load, a
 * page without a chart). Their code is then not parsed and run before the bars are.
 */

/** Longest the panels wait for the first drawn chart. */
export const FIRST_CHART_WAIT_MS = 3000;

/** The User Timing mark set when the first chart has been drawn. */
export const FIRST_CHART_MARK = 'ct:first-chart-drawn';

/**
 * The User Timing mark set when the panels stopped waiting for a first chart that had not
 * been drawn by then (a slow machine): what is asked for after it came with the panels.
 */
export const FIRST_CHART_WAIT_OVER_MARK = 'ct:first-chart-wait-over';
let waitOverMarked = false;

let drawnMarked = false;
let markDrawn: () => void = () => undefined;
const drawn = new Promise<void>((resolve) => {
  markDrawn = resolve;
});

/**
 * A chart has its first bars (ChartController, once per page; later calls do nothing): the
 * panels wait for the frame that draws them, then a task more, so the chart's paint and
 * the page's own update of it come first.
 */
export function firstChartDrawn(): void {
  const frame = globalThis.requestAnimationFrame ?? ((f: () => void) => setTimeout(f, 16));
  frame(() => {
    // For measurements (the browser bench, the browser's performance tools).
    if (!drawnMarked) performance.mark?.(FIRST_CHART_MARK);
    drawnMarked = true;
    setTimeout(markDrawn, 0);
  });
}

/** Resolves when the first chart is drawn, or after `waitMs`, whichever comes first. */
export function afterFirstChart(waitMs = FIRST_CHART_WAIT_MS): Promise<void> {
  const waited = new Promise<void>((resolve) =>
    setTimeout(() => {
      if (!drawnMarked && !waitOverMarked) {
        waitOverMarked = true;
        performance.mark?.(FIRST_CHART_WAIT_OVER_MARK);
      }
      resolve();
    }, waitMs),
  );
  return Promise.race([drawn, waited]);
}

/** React.lazy whose chunk is asked for only after the first chart (see above). */
export const lazyAfterFirstChart: typeof lazy = (load) => lazy(() => afterFirstChart().then(load));
