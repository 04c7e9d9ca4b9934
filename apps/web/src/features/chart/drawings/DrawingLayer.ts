import {
  DEFAULT_DRAWING_STYLE,
  DRAWING_POINTS,
  drawingUpTo,
  fibonacciLevels,
  formatDuration,
  formatPercent,
  formatPrice,
  measureSpan,
  PERCENT_DECIMALS,
  rectangleFillOf,
  snapToTick,
  type Bar,
  type Drawing,
  type DrawingKind,
  type DrawingPoint,
  type DrawingShape,
  type DrawingStyle,
  type Period,
} from '@ct/domain';
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
import { messages } from '../../../i18n/firstScreen';
import type { BarListener, ChartLayer } from '../ChartController';
import { PointerGesture } from '../pointerGesture';
import { hitTest, type Hit, type ScreenDrawing, type ScreenPoint } from './geometry';
import { renderDrawings, type RenderItem, type RenderModel } from './renderer';
import { logicalOfTime, timeOfIndex } from './timeMap';

/*
 * Drawing tools on a chart's price series, hand-written: lightweight-charts draws series,
 * price lines and markers but has no drawing tools. One series primitive (pane view +
 * price-axis labels) draws every drawing of the instrument, the one being drawn and the
 * measuring tool; pointer events on the chart's container (capture phase, so a press that
 * grabs a drawing never reaches the chart, which would scroll) create, select and move them.
 * Mouse, pen and touch are one code path: press-drag-release or tap, tap.
 */

export type DrawingTool = DrawingKind | 'measure';

export type MeasureReadout = {
  text: string;
  /** Where the label goes, in px of the chart's element (near B). */
  x: number;
  y: number;
  up: boolean;
};

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

/** A pointer this close (px) to a drawing grabs it: fingers are less precise than a mouse. */
const REACH_PX = { mouse: 6, touch: 14 } as const;
/** A press that moves less than this (px) is a click or tap. */
const CLICK_SLOP_PX = 4;

type Anchor = DrawingPoint & { index: number };

type Gesture = {
  pointerId: number;
  kind: 'draw' | 'move';
  start: { x: number; y: number };
  startAnchor: Anchor;
  moved: boolean;
  /** Move: the drawing as it was when grabbed and what was grabbed. */
  hit?: Hit;
  original?: Drawing;
};

type Draft = {
  tool: DrawingTool;
  points: Anchor[];
  /** The first point is set by a click: the pointer's moves place the second. */
  waiting: boolean;
};

type Price = ISeriesApi<SeriesType, Time>;

const d = messages.drawings;

/** The layer whose drawing is selected: one selection over all charts, as Delete acts on it. */
const selection: { layer: DrawingLayer | null } = { layer: null };

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
}

function shapeOf(
  kind: DrawingKind,
  points: DrawingPoint[],
  style: DrawingStyle = DEFAULT_DRAWING_STYLE,
): DrawingShape {
  // only a rectangle has a fill
  const { fill, ...line } = style;
  return {
    kind,
    points,
    style: kind === 'rectangle' && fill !== undefined ? { ...line, fill } : line,
  } as DrawingShape;
}

const sameStyle = (a: DrawingStyle | undefined, b: DrawingStyle | undefined) =>
  a?.color === b?.color && a?.width === b?.width && a?.line === b?.line && a?.fill === b?.fill;

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
  private gesture: Gesture | null = null;
  /** The press that draws or grabs: the chart neither sees it nor scrolls until release. */
  private readonly pointer = new PointerGesture({
    down: (event) => this.onPointerDown(event),
    move: (event) => this.onGestureMove(event),
    hover: (event) => this.onHover(event),
    up: (event) => this.onPointerUp(event),
    cancel: (event) => this.onPointerCancel(event),
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
    this.pointer.attach(chart, el);
    document.addEventListener('keydown', this.onKeyDown);
    this.updateDataset();
  }

  detach(): void {
    if (this.gesture) this.endGesture();
    this.pointer.detach();
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
    if (this.moving && !this.gesture) {
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
    if (this.gesture) this.endGesture();
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

  // ---- internals ----

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

  /** What the last layout drew of the saved drawings: how many, and their latest point. */
  private describeShown(shown: readonly { id: number | null; shape: DrawingShape }[]): void {
    const el = this.container;
    if (!el) return;
    const saved = shown.filter((x) => x.id !== null);
    const latest = Math.max(...saved.flatMap((x) => x.shape.points.map((p) => p.time)));
    const count = String(saved.length);
    const to = saved.length > 0 ? String(latest) : '';
    if (el.dataset.drawingsShown !== count) el.dataset.drawingsShown = count;
    if (el.dataset.drawingsTo !== to) el.dataset.drawingsTo = to;
  }

  /** x of a time (epoch seconds) on the chart, null when it cannot be placed. */
  private xOf(time: number): number | null {
    const logical = logicalOfTime(this.bars, this.period, time);
    if (logical === null || !this.chart) return null;
    return this.chart.timeScale().logicalToCoordinate(logical as Logical);
  }

  private yOf(price: number): number | null {
    return this.series?.priceToCoordinate(price) ?? null;
  }

  private place(points: readonly DrawingPoint[]): ScreenPoint[] {
    return points.map((p) => ({ x: this.xOf(p.time), y: this.yOf(p.price) }));
  }

  /** The time and price under (x, y) of the pane: the nearest bar's time, the price on the tick. */
  private anchorAt(x: number, y: number): Anchor | null {
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

  /** Every drawing as shown now: the list, a moved one in its new place, the one being drawn. */
  private shown(): { id: number | null; shape: DrawingShape; selected: boolean }[] {
    const selectedId = this.selectedId();
    const list: { id: number | null; shape: DrawingShape; selected: boolean }[] = [];
    for (const x of this.drawings) {
      const drawing = this.moving?.id === x.id ? this.moving : x;
      // in a replay nothing after the last shown bar (cut or hidden: drawingUpTo)
      const shape =
        this.replayTo === null || this.drawnInReplay.has(x.id)
          ? drawing
          : drawingUpTo(drawing, this.replayTo);
      if (shape) list.push({ id: x.id, shape, selected: x.id === selectedId });
    }
    if (this.saving) list.push({ id: null, shape: this.saving, selected: false });
    const draft = this.draft;
    if (draft && draft.tool !== 'measure' && draft.points.length > 0) {
      const kind = draft.tool;
      const need = DRAWING_POINTS[kind];
      const points = draft.points.slice(0, need).map(({ time, price }) => ({ time, price }));
      while (points.length < need) points.push(points[points.length - 1]!);
      list.push({ id: null, shape: shapeOf(kind, points), selected: true });
    }
    return list;
  }

  /** Places everything on screen (the chart calls it before each redraw). */
  private layout(): void {
    const shown = this.shown();
    this.describeShown(shown);
    this.screen = [];
    const items: RenderItem[] = [];
    const axisViews: ISeriesPrimitiveAxisView[] = [];
    for (const { id, shape, selected } of shown) {
      const points = this.place(shape.points);
      this.screen.push({ id, kind: shape.kind, points });
      const item: RenderItem = {
        kind: shape.kind,
        color: shape.style.color,
        width: shape.style.width,
        line: shape.style.line,
        fill: shape.kind === 'rectangle' ? rectangleFillOf(shape.style) : 0,
        points,
        selected,
      };
      if (shape.kind === 'fibonacci') {
        const [from, to] = shape.points;
        item.levels = fibonacciLevels(from!, to!).map((level) => ({
          y: this.yOf(level.price),
          label: `${level.ratio} (${formatPrice(level.price, this.tick)})`,
        }));
      }
      items.push(item);
      if (shape.kind === 'horizontal' && points[0]?.y !== null && points[0]?.y !== undefined) {
        const y = points[0].y;
        const text = formatPrice(shape.points[0]!.price, this.tick);
        axisViews.push({
          coordinate: () => y,
          text: () => text,
          textColor: () => '#ffffff',
          backColor: () => shape.style.color,
        });
      }
    }
    let measure: RenderModel['measure'] = null;
    const span = this.measured ?? this.draftMeasure();
    if (span) {
      const [a, b] = span;
      const up = b.price >= a.price;
      const color = up ? this.colors.up : this.colors.down;
      const [pa, pb] = this.place([a, b]);
      measure = { a: pa!, b: pb!, color };
      this.showReadout(a, b, pb!, up);
    }
    this.model = {
      items,
      measure,
      handleFill: this.colors.background,
      labelColor: this.colors.text,
      font: `11px ${this.colors.fontFamily}`,
    };
    this.axisViews = axisViews;
  }

  private draftMeasure(): [Anchor, Anchor] | null {
    const draft = this.draft;
    if (draft?.tool !== 'measure' || draft.points.length === 0) return null;
    const a = draft.points[0]!;
    return [a, draft.points[1] ?? a];
  }

  /** The measuring tool's text, beside B (kept inside the pane). */
  private showReadout(a: Anchor, b: Anchor, at: ScreenPoint, up: boolean): void {
    const m = measureSpan(a, b, b.index - a.index);
    const sign = m.priceDistance > 0 ? '+' : m.priceDistance < 0 ? '−' : '';
    const percent =
      m.percent === null
        ? ''
        : ` (${sign}${formatPercent(Math.abs(m.percent), 'percent', { decimals: PERCENT_DECIMALS })})`;
    const text = `${sign}${formatPrice(Math.abs(m.priceDistance), this.tick)}${percent} · ${d.bars(
      Math.abs(m.bars),
    )} · ${formatDuration(m.seconds)}`;
    const width = this.chart?.timeScale().width() ?? 0;
    const height = this.chart?.panes()[0]?.getHeight() ?? 0;
    const x = Math.max(0, Math.min(at.x ?? 0, width));
    const y = Math.max(0, Math.min(at.y ?? 0, height));
    const current = this.ui.getState().measure;
    const same = current?.text === text && current.x === x && current.y === y && current.up === up;
    if (!same) {
      // after the chart's paint, not inside it: React renders the label
      queueMicrotask(() => {
        if (this.measured || this.draft?.tool === 'measure') {
          this.ui.setState({ measure: { text, x, y, up } });
        }
      });
    }
  }

  /** Pointer position relative to the chart's element (its top-left is the pane's). */
  private local(event: PointerEvent): { x: number; y: number } {
    const box = this.chart?.chartElement().getBoundingClientRect() ?? { left: 0, top: 0 };
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  }

  private inPane({ x, y }: { x: number; y: number }): boolean {
    const width = this.chart?.timeScale().width() ?? 0;
    const height = this.chart?.panes()[0]?.getHeight() ?? 0;
    return x >= 0 && y >= 0 && x <= width && y <= height;
  }

  private startGesture(event: PointerEvent, gesture: Omit<Gesture, 'pointerId' | 'moved'>) {
    // The chart must not scroll or zoom under the pointer while it draws or moves.
    if (!this.pointer.start(event)) return;
    this.gesture = { ...gesture, pointerId: event.pointerId, moved: false };
    event.preventDefault();
    event.stopPropagation();
  }

  private endGesture(): Gesture | null {
    const gesture = this.gesture;
    if (!gesture) return null;
    this.gesture = null;
    this.pointer.end();
    return gesture;
  }

  private onPointerDown(event: PointerEvent): void {
    if (this.gesture) return;
    const at = this.local(event);
    if (!this.inPane(at)) return;
    const tool = this.ui.getState().tool;
    if (!tool && this.measured) {
      this.clearMeasure();
      this.requestUpdate?.();
    }
    const anchor = this.anchorAt(at.x, at.y);
    if (!anchor) return;
    if (tool) {
      if (!this.draft) {
        this.clearMeasure();
        this.draft = { tool, points: [anchor, anchor], waiting: false };
      } else {
        this.draft.points[1] = anchor;
      }
      this.startGesture(event, { kind: 'draw', start: at, startAnchor: anchor });
      this.requestUpdate?.();
      return;
    }
    const reach = event.pointerType === 'mouse' ? REACH_PX.mouse : REACH_PX.touch;
    const hit = hitTest(this.screen, this.selectedId(), at.x, at.y, reach);
    if (!hit) {
      if (this.selectedId() !== null) this.select(null);
      return; // the chart scrolls as usual
    }
    this.select(hit.id);
    const original = this.drawings.find((x) => x.id === hit.id);
    if (!original) return;
    this.startGesture(event, { kind: 'move', start: at, startAnchor: anchor, hit, original });
  }

  /** Between the two clicks of a two-point drawing, the second point follows the pointer. */
  private onHover(event: PointerEvent): void {
    if (!this.draft?.waiting) return;
    const at = this.local(event);
    const anchor = this.anchorAt(at.x, at.y);
    if (anchor) {
      this.draft.points[1] = anchor;
      this.requestUpdate?.();
    }
  }

  private onGestureMove(event: PointerEvent): void {
    const gesture = this.gesture;
    if (!gesture) return;
    const at = this.local(event);
    if (Math.hypot(at.x - gesture.start.x, at.y - gesture.start.y) >= CLICK_SLOP_PX) {
      gesture.moved = true;
    }
    const anchor = this.anchorAt(at.x, at.y);
    if (!anchor) return;
    if (gesture.kind === 'draw' && this.draft) {
      if (DRAWING_POINTS[this.draft.tool as DrawingKind] === 1) this.draft.points[0] = anchor;
      this.draft.points[1] = anchor;
    } else if (gesture.kind === 'move' && gesture.original && gesture.hit && gesture.moved) {
      this.moving = this.moved(gesture.original, gesture.hit, gesture.startAnchor, anchor);
    }
    this.requestUpdate?.();
  }

  /** `drawing` after the pointer went from `from` to `to` holding `hit`. */
  private moved(drawing: Drawing, hit: Hit, from: Anchor, to: Anchor): Drawing {
    const points = drawing.points.map((p, i) => {
      if (hit.handle !== null) return i === hit.handle ? { time: to.time, price: to.price } : p;
      const dIndex = to.index - from.index;
      let time = p.time;
      if (dIndex !== 0 && drawing.kind !== 'horizontal') {
        const logical = logicalOfTime(this.bars, this.period, p.time);
        const moved =
          logical === null
            ? null
            : timeOfIndex(this.bars, this.period, Math.round(logical) + dIndex);
        if (moved !== null) time = Math.round(moved);
      }
      const price =
        drawing.kind === 'vertical'
          ? p.price
          : snapToTick(p.price + (to.price - from.price), this.tick);
      return { time, price };
    });
    return { ...drawing, points } as Drawing;
  }

  private onPointerUp(event: PointerEvent): void {
    const gesture = this.gesture;
    if (gesture?.pointerId !== event.pointerId) return;
    this.endGesture();
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
    const twoPoints = draft.tool === 'measure' || DRAWING_POINTS[draft.tool] === 2;
    // a click (no drag) on a two-point tool sets the first point; the next click the second
    if (twoPoints && !gesture.moved && !draft.waiting) {
      draft.waiting = true;
      return;
    }
    this.finishDraft(draft);
  }

  private finishDraft(draft: Draft): void {
    this.draft = null;
    this.ui.setState({ tool: null });
    this.container?.classList.remove('chart-drawing-armed');
    if (draft.tool === 'measure') {
      this.measured = [draft.points[0]!, draft.points[1]!];
      this.updateDataset();
      this.requestUpdate?.();
      return;
    }
    const kind = draft.tool;
    const points = draft.points
      .slice(0, DRAWING_POINTS[kind])
      .map(({ time, price }) => ({ time, price }));
    const shape = shapeOf(kind, points);
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

  private onPointerCancel(event: PointerEvent): void {
    if (this.gesture?.pointerId !== event.pointerId) return;
    const gesture = this.endGesture();
    if (gesture?.kind === 'move') this.moving = null;
    else this.draft = null;
    this.requestUpdate?.();
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
