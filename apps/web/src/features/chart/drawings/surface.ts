import { snapToTick } from '@ct/domain';
import type {
  IChartApi,
  ISeriesApi,
  ISeriesPrimitive,
  ISeriesPrimitiveAxisView,
  IPrimitivePaneView,
  Logical,
  SeriesAttachedParameter,
  SeriesType,
  Time,
} from 'lightweight-charts';
import type { Hit } from './geometry';
import type { PaneSize, Point } from './gestures';
import type { PriceLabel, Projection } from './layout';
import { renderDrawings, type RenderModel } from './renderer';
import type { Anchor, TimeAxis } from './shapes';
import { logicalOfTime, timeOfIndex } from './timeMap';

/*
 * Where the drawing layer meets the chart: one series primitive on the price series (a pane
 * view that paints the render model, price-axis labels, and the cursor over a drawing), the
 * chart's scales both ways (a time and price to a point, a point to a bar's time and a price
 * on the tick), and the marks on the chart's container that styles and tests read.
 */

type Price = ISeriesApi<SeriesType, Time>;

export type SurfaceHost = {
  /** The bars, period and tick the scales are read with. */
  axis(): TimeAxis;
  /** The chart is about to redraw: lay the drawings out and `show` them. */
  layout(): void;
  /** What the mouse is over at this point of the pane, or null (the chart's own cursor). */
  hoverAt(x: number, y: number): Hit | null;
};

export class ChartSurface {
  private chart: IChartApi | null = null;
  private series: Price | null = null;
  private element: HTMLElement | null = null;
  private requestUpdate: (() => void) | null = null;
  private model: RenderModel = {
    items: [],
    measure: null,
    handleFill: '#fff',
    labelColor: '#000',
    font: '11px sans-serif',
  };
  private axisViews: ISeriesPrimitiveAxisView[] = [];

  private readonly paneView: IPrimitivePaneView = {
    zOrder: () => 'top',
    renderer: () => ({ draw: (target) => renderDrawings(target, this.model) }),
  };
  private readonly paneViews = [this.paneView];

  private readonly primitive: ISeriesPrimitive<Time> = {
    attached: (param: SeriesAttachedParameter<Time>) => {
      this.requestUpdate = param.requestUpdate;
    },
    detached: () => {
      this.requestUpdate = null;
    },
    updateAllViews: () => this.host.layout(),
    paneViews: () => this.paneViews,
    priceAxisViews: () => this.axisViews,
    hitTest: (x, y) => {
      const hit = this.host.hoverAt(x, y);
      return hit
        ? {
            externalId: `drawing-${hit.id}`,
            zOrder: 'top',
            cursorStyle: hit.handle === null ? 'move' : 'grab',
          }
        : null;
    },
  };

  /** The chart's scales, for `layout`. */
  readonly projection: Projection = {
    x: (time) => {
      const { bars, period } = this.host.axis();
      const logical = logicalOfTime(bars, period, time);
      if (logical === null || !this.chart) return null;
      return this.chart.timeScale().logicalToCoordinate(logical as Logical);
    },
    y: (price) => this.series?.priceToCoordinate(price) ?? null,
  };

  constructor(private readonly host: SurfaceHost) {}

  /**
   * Puts the primitive on the price series; gives back the chart's container, which holds
   * the chart's element: pointer capture there runs before the chart's own listeners and
   * those of other layers on the chart's element.
   */
  attach(chart: IChartApi, series: Price): HTMLElement {
    this.chart = chart;
    this.series = series;
    series.attachPrimitive(this.primitive);
    const chartElement = chart.chartElement();
    this.element = chartElement.parentElement ?? chartElement;
    return this.element;
  }

  detach(): void {
    this.element?.classList.remove('chart-drawing-armed');
    this.series?.detachPrimitive(this.primitive);
    this.series = null;
    this.chart = null;
    this.element = null;
  }

  /** Asks the chart to redraw (it calls `layout` first); nothing while detached. */
  redraw(): void {
    this.requestUpdate?.();
  }

  /** What the next paint draws, and the price axis's labels. */
  show(model: RenderModel, priceLabels: readonly PriceLabel[]): void {
    this.model = model;
    this.axisViews = priceLabels.map(({ y, text, color }) => ({
      coordinate: () => y,
      text: () => text,
      textColor: () => '#ffffff',
      backColor: () => color,
    }));
  }

  /** Sets data attributes on the chart's container (changed ones only). */
  mark(data: Record<string, string>): void {
    const el = this.element;
    if (!el) return;
    for (const [key, value] of Object.entries(data)) {
      if (el.dataset[key] !== value) el.dataset[key] = value;
    }
  }

  /** A tool is armed: the container shows the crosshair cursor of drawing. */
  arm(armed: boolean): void {
    this.element?.classList.toggle('chart-drawing-armed', armed);
  }

  paneSize(): PaneSize {
    return {
      width: this.chart?.timeScale().width() ?? 0,
      height: this.chart?.panes()[0]?.getHeight() ?? 0,
    };
  }

  /** The time and price under a point of the pane: the nearest bar's time, the price on the tick. */
  anchorAt({ x, y }: Point): Anchor | null {
    const chart = this.chart;
    const series = this.series;
    const { bars, period, tick } = this.host.axis();
    if (!chart || !series || bars.length === 0) return null;
    const logical = chart.timeScale().coordinateToLogical(x);
    const price = series.coordinateToPrice(y);
    if (logical === null || price === null) return null;
    const index = Math.round(logical);
    const time = timeOfIndex(bars, period, index);
    if (time === null) return null;
    return { time: Math.round(time), price: snapToTick(price, tick), index };
  }
}
