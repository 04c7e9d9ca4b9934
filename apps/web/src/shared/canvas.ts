let canvasSupport: boolean | null = null;

/** True when the browser gives a 2D canvas context (lightweight-charts needs one). */
export function canDrawCharts(): boolean {
  canvasSupport ??= document.createElement('canvas').getContext('2d') !== null;
  return canvasSupport;
}
