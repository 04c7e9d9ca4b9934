import type {
  IChartApi,
  IPriceLine,
  ISeriesApi,
  ISeriesPrimitive,
  LineStyle,
  SeriesType,
  Time,
} from 'lightweight-charts';
import type { ChartLayer } from '../ChartController';
import { PointerGesture, pointIn } from '../pointerGesture';
import { snapDragPrice } from './model';

/*
 * The trader's lines on a chart's price series, and dragging them. lightweight-charts' price
 * lines cannot be dragged, so the drag is ours: pointer events on the chart's element, a hit
 * test near each draggable line's y (series.priceToCoordinate), the price under the pointer
 * (series.coordinateToPrice) snapped to the tick, and the chart's own scrolling and scaling
 * switched off until the pointer is released. Mouse, pen and touch are one code path.
 */

/** How a line is drawn. */
export type LineDraw = {
  id: string;
  price: number;
  color: string;
  lineStyle: LineStyle;
  draggable: boolean;
};

/** Where each line is, in px from the top of the chart; null when it is off the price pane. */
export type LinePlaces = ReadonlyMap<string, number | null>;

export type LayerEvents = {
  /** The lines moved on screen (scroll, zoom, new prices, a drag): labels follow. */
  place(places: LinePlaces): void;
  /** A draggable line is being dragged; `price` is on the tick. */
  dragMove(id: string, price: number): void;
  /** A drag ended with the line at `price` (not called when it did not move). */
  drop(id: string, price: number): void;
  /** A drag was cancelled by the browser (the line is back at its price). */
  dragCancel?(id: string): void;
};

/** A pointer this close to a line (px) grabs it: fingers are less precise than a mouse. */
export const GRAB_PX = { mouse: 6, touch: 16 } as const;

type Drag = {
  id: string;
  pointerId: number;
  price: number;
  moved: boolean;
};

type Price = ISeriesApi<SeriesType, Time>;

export class TradeLinesLayer implements ChartLayer {
  private chart: IChartApi | null = null;
  private series: Price | null = null;
  private readonly priceLines = new Map<string, IPriceLine>();
  private lines: readonly LineDraw[] = [];
  private tick = 0.01;
  private drag: Drag | null = null;
  /** A press that grabbed a line: the chart neither sees it nor scrolls until release. */
  private readonly pointer = new PointerGesture({
    down: (event) => this.onPointerDown(event),
    move: (event) => this.onDragMove(event),
    hover: (event) => this.onHover(event),
    up: (event) => this.onPointerUp(event),
    cancel: (event) => this.onPointerCancel(event),
  });
  private lastPlaces = '';
  private readonly primitive: ISeriesPrimitive<Time> = {
    // Called by the chart whenever it redraws: the lines may have moved on screen.
    updateAllViews: () => this.place(),
    // The price scale takes the trader's lines in, so a TP or SL away from the bars stays
    // on screen (a line during its drag does not move the scale: `lines` is the saved one).
    autoscaleInfo: () => {
      if (this.lines.length === 0) return null;
      const prices = this.lines.map((line) => line.price);
      return { priceRange: { minValue: Math.min(...prices), maxValue: Math.max(...prices) } };
    },
  };

  /** The chart's own element: it receives the pointer events (its top is the pane's top). */
  private element: HTMLElement | null = null;

  constructor(private readonly events: LayerEvents) {}

  // ---- ChartLayer ----

  attach(chart: IChartApi, series: Price): void {
    this.chart = chart;
    this.series = series;
    series.attachPrimitive(this.primitive);
    for (const line of this.lines) this.createLine(line);
    const el = chart.chartElement();
    this.element = el;
    this.pointer.attach(chart, el);
    this.lastPlaces = '';
    this.place();
  }

  detach(): void {
    if (this.drag) this.endDrag(false);
    const el = this.element;
    if (!el) return;
    this.pointer.detach();
    el.classList.remove('chart-trades-grab', 'chart-trades-dragging');
    const series = this.series;
    if (series) {
      for (const line of this.priceLines.values()) series.removePriceLine(line);
      series.detachPrimitive(this.primitive);
    }
    this.priceLines.clear();
    this.series = null;
    this.chart = null;
    this.element = null;
  }

  // ---- what React hands in ----

  /** The lines to draw; a line being dragged keeps its dragged price. */
  setLines(lines: readonly LineDraw[]): void {
    this.lines = lines;
    const wanted = new Set(lines.map((l) => l.id));
    for (const [id, priceLine] of this.priceLines) {
      if (!wanted.has(id)) {
        this.series?.removePriceLine(priceLine);
        this.priceLines.delete(id);
      }
    }
    for (const line of lines) {
      const existing = this.priceLines.get(line.id);
      const price = this.drag?.id === line.id ? this.drag.price : line.price;
      if (existing) existing.applyOptions(this.optionsOf({ ...line, price }));
      else this.createLine({ ...line, price });
    }
    if (this.drag && !wanted.has(this.drag.id)) this.endDrag(false);
    this.lastPlaces = '';
    this.place();
  }

  setTick(tick: number): void {
    this.tick = tick;
  }

  /** Shows a line at `price` (a drop waiting for its confirmation) or back at its own price. */
  showAt(id: string, price: number | null): void {
    const line = this.lines.find((l) => l.id === id);
    const priceLine = this.priceLines.get(id);
    if (!line || !priceLine) return;
    priceLine.applyOptions({ price: price ?? line.price });
    this.place();
  }

  /** Starts dragging a line from its label (the label is outside the chart's element). */
  grab(id: string, event: PointerEvent): void {
    const line = this.lines.find((l) => l.id === id);
    if (!line?.draggable || !this.series) return;
    event.preventDefault();
    this.startDrag(line, event);
  }

  /** The price under a y of the chart (px from its top) on the tick, or null off the pane. */
  priceAt(y: number): number | null {
    const raw = this.series?.coordinateToPrice(y);
    return raw === null || raw === undefined ? null : snapDragPrice(raw, this.tick);
  }

  // ---- internals ----

  private optionsOf(line: LineDraw) {
    return {
      id: line.id,
      price: line.price,
      color: line.color,
      lineWidth: 1 as const,
      lineStyle: line.lineStyle,
      axisLabelVisible: true,
      title: '',
    };
  }

  private createLine(line: LineDraw): void {
    if (!this.series) return;
    this.priceLines.set(line.id, this.series.createPriceLine(this.optionsOf(line)));
  }

  /** The y of each line now; the labels are told only when something moved. */
  private place(): void {
    const series = this.series;
    if (!series) return;
    const height = this.paneHeight();
    const places = new Map<string, number | null>();
    for (const line of this.lines) {
      const price = this.priceLines.get(line.id)?.options().price ?? line.price;
      const y = series.priceToCoordinate(price);
      places.set(line.id, y === null || y < 0 || (height > 0 && y > height) ? null : Math.round(y));
    }
    const key = JSON.stringify([...places]);
    if (key === this.lastPlaces) return;
    this.lastPlaces = key;
    this.events.place(places);
  }

  private paneHeight(): number {
    return this.chart?.panes()[0]?.getHeight() ?? 0;
  }

  /** Pointer position relative to the chart's element. */
  private local(event: PointerEvent | MouseEvent): { x: number; y: number } {
    return pointIn(this.element, event);
  }

  /** The draggable line nearest to the pointer within the grab distance, if any. */
  private hit(event: PointerEvent): LineDraw | null {
    const series = this.series;
    if (!series) return null;
    const { x, y } = this.local(event);
    const height = this.paneHeight();
    const width = this.element?.clientWidth ?? 0;
    if (x < 0 || y < 0 || x > width || (height > 0 && y > height)) return null;
    const reach = event.pointerType === 'mouse' ? GRAB_PX.mouse : GRAB_PX.touch;
    let best: LineDraw | null = null;
    let bestDistance = Infinity;
    for (const line of this.lines) {
      if (!line.draggable) continue;
      const ly = series.priceToCoordinate(
        this.priceLines.get(line.id)?.options().price ?? line.price,
      );
      if (ly === null) continue;
      const distance = Math.abs(ly - y);
      if (distance <= reach && distance < bestDistance) {
        best = line;
        bestDistance = distance;
      }
    }
    return best;
  }

  private startDrag(line: LineDraw, event: PointerEvent): void {
    // The chart must not scroll or zoom under the dragged line.
    if (!this.pointer.start(event)) return;
    this.drag = {
      id: line.id,
      pointerId: event.pointerId,
      price: this.priceLines.get(line.id)?.options().price ?? line.price,
      moved: false,
    };
    this.element?.classList.add('chart-trades-dragging');
  }

  private endDrag(dropped: boolean): void {
    const drag = this.drag;
    if (!drag) return;
    this.drag = null;
    this.pointer.end();
    this.element?.classList.remove('chart-trades-dragging');
    if (dropped && drag.moved) {
      this.events.drop(drag.id, drag.price);
    } else {
      this.showAt(drag.id, null);
      if (!dropped) this.events.dragCancel?.(drag.id);
    }
  }

  private onPointerDown(event: PointerEvent): void {
    if (this.drag) return;
    const line = this.hit(event);
    if (!line) return;
    // The chart's own handlers never see this press: it belongs to the line.
    event.preventDefault();
    event.stopPropagation();
    this.startDrag(line, event);
  }

  private onHover(event: PointerEvent): void {
    if (event.pointerType === 'mouse') {
      this.element?.classList.toggle('chart-trades-grab', this.hit(event) !== null);
    }
  }

  private onDragMove(event: PointerEvent): void {
    const drag = this.drag;
    if (!drag) return;
    const price = this.priceAt(this.local(event).y);
    if (price === null || !(price > 0) || price === drag.price) return;
    drag.price = price;
    drag.moved = true;
    this.priceLines.get(drag.id)?.applyOptions({ price });
    this.events.dragMove(drag.id, price);
    this.place();
  }

  private onPointerUp(event: PointerEvent): void {
    if (this.drag?.pointerId !== event.pointerId) return;
    this.endDrag(true);
  }

  private onPointerCancel(event: PointerEvent): void {
    if (this.drag?.pointerId !== event.pointerId) return;
    this.endDrag(false);
  }
}
