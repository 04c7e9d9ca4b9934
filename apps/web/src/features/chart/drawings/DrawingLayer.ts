import type { Bar, Drawing, DrawingKind, DrawingShape, DrawingStyle, Period } from '@ct/domain';
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
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { BarListener, ChartLayer } from '../ChartController';
import {
  draftShape,
  draftSpan,
  dragDraft,
  hoverDraft,
  pressDraft,
  releaseDraft,
  type Draft,
  type DrawingTool,
} from './draft';
import { hitTest, type ScreenDrawing } from './geometry';
import {
  DrawingGestures,
  REACH_PX,
  reachOf,
  type Gesture,
  type GestureStart,
  type PaneSize,
  type Point,
} from './gestures';
import { layoutDrawings, placePoints, shownSummary, type Projection } from './layout';
import { measureReadout, sameReadout, spanUp, type MeasureReadout } from './readout';
import { renderDrawings, type RenderModel } from './renderer';
import { moveDrawing, sameStyle, shapeOf, shownDrawings, type Anchor } from './shapes';
import { logicalOfTime, timeOfIndex } from './timeMap';

/*
 * Drawing tools on a chart's price series, hand-written: lightweight-charts draws series,
 * price lines and markers but has no drawing tools. One series primitive (pane view +
 * price-axis labels) draws every drawing of the instrument, the one being drawn and the
 * measuring tool; pointer events on the chart's container (capture phase, so a press that
 * grabs a drawing never reaches the chart, which would scroll) create, select and move them.
 * Mouse, pen and touch are one code path: press-drag-release or tap, tap.
 *
 * This class holds the state and coordinates: the pointer is followed by `gestures`, the
 * drawing being drawn changes by `draft`, drawings move and are listed by `shapes`, go on
 * screen by `layout`, and the measuring tool's text is made by `readout`.
 */

export type { DrawingTool } from './draft';
export type { MeasureReadout } from './readout';

/** What React shows beside the chart: the armed tool, the selection, the measurement. */
export type DrawingUiState = {
  tool: DrawingTool | null;
  /** The selected drawing and its style (what the style bar shows). */
  selected: { id: number; kind: DrawingKind; style: DrawingStyle } | null;
  measure: MeasureReadout | null;
};

export type DrawingLayerEvents = {
  /** A drawing was finished: save it; the answer is the saved drawing, or null. */
  create(shape: DrawingShape): Promise<Drawing | null>;
  /** A drawing was moved or a point dragged. */
  update(id: number, shape: DrawingShape): void;
  remove(id: number): void;
};

export type DrawingColors = {
  background: string;
  text: string;
  up: string;
  down: string;
  fontFamily: string;
};

type Price = ISeriesApi<SeriesType, Time>;

/** The layer whose drawing is selected: one selection over all charts, as Delete acts on it. */
const selection: { layer: DrawingLayer | null } = { layer: null };

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
}

export class DrawingLayer implements ChartLayer, BarListener {
  readonly ui: StoreApi<DrawingUiState> = createStore<DrawingUiState>(() => ({
    tool: null,
    selected: null,
    measure: null,
  }));

  private chart: IChartApi | null = null;
  private series: Price | null = null;
  private container: HTMLElement | null = null;
  private requestUpdate: (() => void) | null = null;
  private bars: readonly Bar[] = [];
  private period: Period = 'day';
  private tick = 0.01;
  private colors: DrawingColors = {
    background: '#ffffff',
    text: '#000000',
    up: '#089981',
    down: '#f23645',
    fontFamily: 'sans-serif',
  };
  private drawings: readonly Drawing[] = [];
  /** A drawing being moved is shown here until the list holds the moved version. */
  private moving: Drawing | null = null;
  /** A drawing waiting for the server's answer after it was drawn. */
  private saving: DrawingShape | null = null;
  /** The id of the drawing just saved: selected once the list holds it. */
  private savedId: number | null = null;
  private draft: Draft | null = null;
  /**
   * Bar replay: the last shown bar's time (epoch s); saved drawings show nothing after it,
   * except those drawn during this replay. Null outside a replay.
   */
  private replayTo: number | null = null;
  private readonly drawnInReplay = new Set<number>();
  private measured: [Anchor, Anchor] | null = null;
  /** The press that draws or grabs: the chart neither sees it nor scrolls until release. */
  private readonly gestures = new DrawingGestures({
    anchorAt: (at) => this.anchorAt(at),
    paneSize: () => this.paneSize(),
    press: (at, pointerType) => this.press(at, pointerType),
    drag: (gesture, anchor) => this.drag(gesture, anchor),
    hover: (anchor) => this.hover(anchor),
    release: (gesture) => this.release(gesture),
    abort: (gesture) => this.abort(gesture),
  });
  private screen: ScreenDrawing[] = [];
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

  /** The chart's scales, for `layout`. */
  private readonly projection: Projection = {
    x: (time) => {
      const logical = logicalOfTime(this.bars, this.period, time);
      if (logical === null || !this.chart) return null;
      return this.chart.timeScale().logicalToCoordinate(logical as Logical);
    },
    y: (price) => this.series?.priceToCoordinate(price) ?? null,
  };

  private readonly primitive: ISeriesPrimitive<Time> = {
    attached: (param: SeriesAttachedParameter<Time>) => {
      this.requestUpdate = param.requestUpdate;
    },
    detached: () => {
      this.requestUpdate = null;
    },
    updateAllViews: () => this.layout(),
    paneViews: () => this.paneViews,
    priceAxisViews: () => this.axisViews,
    hitTest: (x, y) => {
      if (this.ui.getState().tool) return null;
      const hit = hitTest(this.screen, this.selectedId(), x, y, REACH_PX.mouse);
      return hit
        ? {
            externalId: `drawing-${hit.id}`,
            zOrder: 'top',
            cursorStyle: hit.handle === null ? 'move' : 'grab',
          }
        : null;
    },
  };

  constructor(private readonly events: DrawingLayerEvents) {}

  // ---- ChartLayer ----

  attach(chart: IChartApi, series: Price): void {
    this.chart = chart;
    this.series = series;
    series.attachPrimitive(this.primitive);
    const chartElement = chart.chartElement();
    // The container holds the chart's element: capture there runs before the chart's own
    // listeners and those of other layers on the chart's element.
    const el = chartElement.parentElement ?? chartElement;
    this.container = el;
    this.gestures.attach(chart, el);
    document.addEventListener('keydown', this.onKeyDown);
    this.updateDataset();
  }

  detach(): void {
    this.gestures.detach();
    this.container?.classList.remove('chart-drawing-armed');
    document.removeEventListener('keydown', this.onKeyDown);
    this.series?.detachPrimitive(this.primitive);
    this.series = null;
    this.chart = null;
    this.container = null;
  }

  // ---- BarListener ----

  reset(bars: readonly Bar[]): void {
    this.bars = bars;
    this.requestUpdate?.();
  }

  update(bars: readonly Bar[]): void {
    this.bars = bars;
  }

  replayCursor(shownTo: number | null): void {
    this.replayTo = shownTo === null ? null : Math.floor(shownTo / 1000);
    if (shownTo === null) this.drawnInReplay.clear();
    this.requestUpdate?.();
  }

  // ---- what React hands in ----

  setContext(period: Period, tick: number, colors: DrawingColors): void {
    this.period = period;
    this.tick = tick;
    this.colors = colors;
    this.requestUpdate?.();
  }

  setDrawings(drawings: readonly Drawing[]): void {
    this.drawings = drawings;
    if (this.moving && !this.gestures.active) {
      const listed = drawings.find((x) => x.id === this.moving?.id);
      if (!listed || JSON.stringify(listed.points) === JSON.stringify(this.moving.points)) {
        this.moving = null;
      }
    }
    if (this.savedId !== null && drawings.some((x) => x.id === this.savedId)) {
      this.saving = null;
      this.select(this.savedId);
      this.savedId = null;
    }
    const selected = this.ui.getState().selected;
    // gone (deleted here or on another device): unselected; restyled: the bar follows
    if (selected) this.select(drawings.some((x) => x.id === selected.id) ? selected.id : null);
    this.updateDataset();
    this.requestUpdate?.();
  }

  /** Arms a tool (the same tool again disarms it); a drawing being drawn is dropped. */
  setTool(tool: DrawingTool | null): void {
    const next = this.ui.getState().tool === tool ? null : tool;
    this.draft = null;
    if (next) this.select(null);
    if (next !== 'measure') this.clearMeasure();
    this.ui.setState({ tool: next });
    this.container?.classList.toggle('chart-drawing-armed', next !== null);
    this.updateDataset();
    this.requestUpdate?.();
  }

  /**
   * Gives the selected drawing a new style (colour, width, line, a rectangle's fill): shown
   * at once, then saved. A drawing being moved keeps its new place.
   */
  restyleSelected(change: Partial<DrawingStyle>): void {
    const id = this.selectedId();
    const drawing = id === null ? undefined : this.drawings.find((x) => x.id === id);
    if (!drawing) return;
    const current = this.moving?.id === drawing.id ? this.moving : drawing;
    const style: DrawingStyle = { ...current.style, ...change };
    if (sameStyle(style, current.style)) return;
    this.events.update(drawing.id, shapeOf(current.kind, current.points, style));
  }

  /** Deletes the selected drawing. */
  deleteSelected(): void {
    const selected = this.ui.getState().selected;
    if (!selected) return;
    this.select(null);
    this.events.remove(selected.id);
  }

  /** Escape: the drawing being drawn, else the armed tool, else the selection and measure. */
  cancel(): void {
    this.gestures.end();
    if (this.draft) this.draft = null;
    else if (this.ui.getState().tool) this.setTool(null);
    else {
      this.select(null);
      this.clearMeasure();
    }
    this.requestUpdate?.();
  }

  dispose(): void {
    this.detach();
    if (selection.layer === this) selection.layer = null;
  }

  // ---- selection and state shown on the chart's element ----

  private selectedId(): number | null {
    return this.ui.getState().selected?.id ?? null;
  }

  private select(id: number | null): void {
    const drawing = id === null ? undefined : this.drawings.find((x) => x.id === id);
    const selected = drawing ? { id: drawing.id, kind: drawing.kind, style: drawing.style } : null;
    const current = this.ui.getState().selected;
    if (current?.id !== selected?.id || !sameStyle(current?.style, selected?.style)) {
      this.ui.setState({ selected });
    }
    if (selected) {
      if (selection.layer && selection.layer !== this) selection.layer.select(null);
      selection.layer = this;
    } else if (selection.layer === this) {
      selection.layer = null;
    }
    this.updateDataset();
    this.requestUpdate?.();
  }

  private clearMeasure(): void {
    if (!this.measured && !this.ui.getState().measure) return;
    this.measured = null;
    this.ui.setState({ measure: null });
    this.updateDataset();
  }

  private updateDataset(): void {
    const el = this.container;
    if (!el) return;
    el.dataset.drawings = String(this.drawings.length);
    el.dataset.drawingSelected = String(this.selectedId() ?? '');
    el.dataset.drawingTool = this.ui.getState().tool ?? '';
  }

  // ---- layout: the chart calls it before each redraw ----

  private layout(): void {
    const shown = shownDrawings({
      drawings: this.drawings,
      moving: this.moving,
      selectedId: this.selectedId(),
      replayTo: this.replayTo,
      drawnInReplay: this.drawnInReplay,
      saving: this.saving,
      drafted: draftShape(this.draft),
    });
    const el = this.container;
    if (el) {
      // what the last layout drew of the saved drawings: how many, and their latest point
      const { count, to } = shownSummary(shown);
      if (el.dataset.drawingsShown !== count) el.dataset.drawingsShown = count;
      if (el.dataset.drawingsTo !== to) el.dataset.drawingsTo = to;
    }
    const { screen, items, priceLabels } = layoutDrawings(shown, this.projection, this.tick);
    this.screen = screen;
    let measure: RenderModel['measure'] = null;
    const span = this.measured ?? draftSpan(this.draft);
    if (span) {
      const [a, b] = span;
      const [pa, pb] = placePoints([a, b], this.projection);
      measure = { a: pa!, b: pb!, color: spanUp(a, b) ? this.colors.up : this.colors.down };
      this.showReadout(measureReadout(a, b, pb!, this.tick, this.paneSize()));
    }
    this.model = {
      items,
      measure,
      handleFill: this.colors.background,
      labelColor: this.colors.text,
      font: `11px ${this.colors.fontFamily}`,
    };
    this.axisViews = priceLabels.map(({ y, text, color }) => ({
      coordinate: () => y,
      text: () => text,
      textColor: () => '#ffffff',
      backColor: () => color,
    }));
  }

  private showReadout(readout: MeasureReadout): void {
    if (sameReadout(this.ui.getState().measure, readout)) return;
    // after the chart's paint, not inside it: React renders the label
    queueMicrotask(() => {
      if (this.measured || this.draft?.tool === 'measure') {
        this.ui.setState({ measure: readout });
      }
    });
  }

  private paneSize(): PaneSize {
    return {
      width: this.chart?.timeScale().width() ?? 0,
      height: this.chart?.panes()[0]?.getHeight() ?? 0,
    };
  }

  /** The time and price under a point of the pane: the nearest bar's time, the price on the tick. */
  private anchorAt({ x, y }: Point): Anchor | null {
    const chart = this.chart;
    const series = this.series;
    if (!chart || !series || this.bars.length === 0) return null;
    const logical = chart.timeScale().coordinateToLogical(x);
    const price = series.coordinateToPrice(y);
    if (logical === null || price === null) return null;
    const index = Math.round(logical);
    const time = timeOfIndex(this.bars, this.period, index);
    if (time === null) return null;
    return { time: Math.round(time), price: snapToTick(price, this.tick), index };
  }

  // ---- what the pointer does (called by `gestures`) ----

  private press(at: Point, pointerType: string): GestureStart | null {
    const tool = this.ui.getState().tool;
    if (!tool && this.measured) {
      this.clearMeasure();
      this.requestUpdate?.();
    }
    const anchor = this.anchorAt(at);
    if (!anchor) return null;
    if (tool) {
      if (!this.draft) this.clearMeasure();
      this.draft = pressDraft(this.draft, tool, anchor);
      this.requestUpdate?.();
      return { kind: 'draw', startAnchor: anchor };
    }
    const hit = hitTest(this.screen, this.selectedId(), at.x, at.y, reachOf(pointerType));
    if (!hit) {
      if (this.selectedId() !== null) this.select(null);
      return null; // the chart scrolls as usual
    }
    this.select(hit.id);
    const original = this.drawings.find((x) => x.id === hit.id);
    if (!original) return null;
    return { kind: 'move', startAnchor: anchor, hit, original };
  }

  private drag(gesture: Gesture, anchor: Anchor): void {
    if (gesture.kind === 'draw' && this.draft) {
      this.draft = dragDraft(this.draft, anchor);
    } else if (gesture.kind === 'move' && gesture.original && gesture.hit && gesture.moved) {
      const axis = { bars: this.bars, period: this.period, tick: this.tick };
      this.moving = moveDrawing(gesture.original, gesture.hit, gesture.startAnchor, anchor, axis);
    }
    this.requestUpdate?.();
  }

  private hover(anchor: Anchor): void {
    if (!this.draft?.waiting) return;
    this.draft = hoverDraft(this.draft, anchor);
    this.requestUpdate?.();
  }

  private release(gesture: Gesture): void {
    if (gesture.kind === 'move') {
      const moving = this.moving;
      if (gesture.moved && moving && gesture.original) {
        this.events.update(moving.id, shapeOf(moving.kind, moving.points, moving.style));
      } else {
        this.moving = null;
      }
      this.requestUpdate?.();
      return;
    }
    const draft = this.draft;
    if (!draft) return;
    // a click (no drag) on a two-point tool sets the first point; the next click the second
    if (releaseDraft(draft, gesture.moved) === 'wait') {
      this.draft = { ...draft, waiting: true };
      return;
    }
    this.finishDraft(draft);
  }

  private abort(gesture: Gesture): void {
    if (gesture.kind === 'move') this.moving = null;
    else this.draft = null;
    this.requestUpdate?.();
  }

  private finishDraft(draft: Draft): void {
    this.draft = null;
    this.ui.setState({ tool: null });
    this.container?.classList.remove('chart-drawing-armed');
    const shape = draftShape(draft);
    if (!shape) {
      this.measured = draftSpan(draft);
      this.updateDataset();
      this.requestUpdate?.();
      return;
    }
    this.saving = shape;
    this.updateDataset();
    this.requestUpdate?.();
    void this.events.create(shape).then((saved) => {
      if (this.saving !== shape) return;
      if (saved && this.replayTo !== null) this.drawnInReplay.add(saved.id);
      if (!saved) this.saving = null;
      else if (this.drawings.some((x) => x.id === saved.id)) {
        this.saving = null;
        this.select(saved.id);
      } else this.savedId = saved.id; // selected when the list comes (setDrawings)
      this.requestUpdate?.();
    });
  }

  private readonly onKeyDown = (event: KeyboardEvent): void => {
    if (isEditable(event.target)) return;
    if (event.key === 'Escape') {
      if (this.draft || this.ui.getState().tool || this.measured || selection.layer === this) {
        this.cancel();
      }
      return;
    }
    if ((event.key === 'Delete' || event.key === 'Backspace') && selection.layer === this) {
      event.preventDefault();
      this.deleteSelected();
    }
  };
}
