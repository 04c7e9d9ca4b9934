import type { Bar, Drawing, DrawingStyle, Period } from '@ct/domain';
import type { IChartApi, ISeriesApi, SeriesType, Time } from 'lightweight-charts';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { BarListener, ChartLayer } from '../ChartController';
import type { DrawingTool } from './draft';
import { DrawingGestures, type Gesture, type GestureStart, type Point } from './gestures';
import { DrawingGrab } from './grab';
import { layoutDrawings, shownSummary } from './layout';
import { DrawingPen } from './pen';
import { DrawingSaves } from './saves';
import { DrawingSelection, listenKeys } from './selection';
import { shownDrawings, type Anchor } from './shapes';
import { ChartSurface } from './surface';
import {
  DEFAULT_DRAWING_COLORS,
  type DrawingColors,
  type DrawingLayerEvents,
  type DrawingUiState,
} from './types';

/*
 * Drawing tools on a chart's price series, hand-written: lightweight-charts draws series,
 * price lines and markers but has no drawing tools. One series primitive (pane view +
 * price-axis labels) draws every drawing of the instrument, the one being drawn and the
 * measuring tool; pointer events on the chart's container (capture phase, so a press that
 * grabs a drawing never reaches the chart, which would scroll) create, select and move them.
 * Mouse, pen and touch are one code path: press-drag-release or tap, tap.
 *
 * This class holds the instrument's drawings and coordinates: the chart is met through
 * `surface`, the pointer is followed by `gestures`; a press draws or measures with the armed
 * tool (`pen`) or grabs and moves a drawing (`grab`); a new drawing waits for the server in
 * `saves`; `selection` keeps the one selection over all charts and its keys; what is shown
 * is listed by `shapes` and placed by `layout`.
 */

export type { DrawingTool } from './draft';
export type { MeasureReadout } from './readout';
export type { DrawingColors, DrawingLayerEvents, DrawingUiState } from './types';

export class DrawingLayer implements ChartLayer, BarListener {
  readonly ui: StoreApi<DrawingUiState> = createStore<DrawingUiState>(() => ({
    tool: null,
    selected: null,
    measure: null,
  }));

  private bars: readonly Bar[] = [];
  private period: Period = 'day';
  private tick = 0.01;
  private colors: DrawingColors = DEFAULT_DRAWING_COLORS;
  private drawings: readonly Drawing[] = [];
  /**
   * Bar replay: the last shown bar's time (epoch s); saved drawings show nothing after it,
   * except those drawn during this replay. Null outside a replay.
   */
  private replayTo: number | null = null;
  private readonly drawnInReplay = new Set<number>();
  private stopKeys: (() => void) | null = null;

  private readonly surface = new ChartSurface({
    axis: () => this.axis(),
    layout: () => this.layout(),
    hoverAt: (x, y) => (this.pen.tool ? null : this.grab.hoverAt(x, y)),
  });
  /** The press that draws or grabs: the chart neither sees it nor scrolls until release. */
  private readonly gestures = new DrawingGestures({
    anchorAt: (at) => this.surface.anchorAt(at),
    paneSize: () => this.surface.paneSize(),
    press: (at, pointerType) => this.press(at, pointerType),
    drag: (gesture, anchor) => this.drag(gesture, anchor),
    hover: (anchor) => {
      if (this.pen.hover(anchor)) this.surface.redraw();
    },
    release: (gesture) => this.release(gesture),
    abort: (gesture) => this.abort(gesture),
  });
  private readonly selection: DrawingSelection = new DrawingSelection(this.ui, {
    drawings: () => this.drawings,
    current: (drawing) => this.grab.current(drawing),
    changed: () => {
      this.markState();
      this.surface.redraw();
    },
    update: (id, shape) => this.events.update(id, shape),
    remove: (id) => this.events.remove(id),
  });
  private readonly pen = new DrawingPen(this.ui, { cleared: () => this.markState() });
  private readonly grab: DrawingGrab = new DrawingGrab({
    drawings: () => this.drawings,
    selectedId: () => this.selection.id,
    select: (id) => this.selection.select(id),
    axis: () => this.axis(),
    update: (id, shape) => this.events.update(id, shape),
  });
  private readonly saves = new DrawingSaves({
    create: (shape) => this.events.create(shape),
    listed: (id) => this.drawings.some((x) => x.id === id),
    answered: (saved, listed) => {
      if (saved && this.replayTo !== null) this.drawnInReplay.add(saved.id);
      if (saved && listed) this.selection.select(saved.id);
      this.surface.redraw();
    },
  });

  constructor(private readonly events: DrawingLayerEvents) {}

  // ---- ChartLayer ----

  attach(chart: IChartApi, series: ISeriesApi<SeriesType, Time>): void {
    this.gestures.attach(chart, this.surface.attach(chart, series));
    this.stopKeys = listenKeys(this, this.selection);
    this.markState();
  }

  detach(): void {
    this.gestures.detach();
    this.stopKeys?.();
    this.stopKeys = null;
    this.surface.detach();
  }

  // ---- BarListener ----

  reset(bars: readonly Bar[]): void {
    this.bars = bars;
    this.surface.redraw();
  }

  update(bars: readonly Bar[]): void {
    this.bars = bars;
  }

  replayCursor(shownTo: number | null): void {
    this.replayTo = shownTo === null ? null : Math.floor(shownTo / 1000);
    if (shownTo === null) this.drawnInReplay.clear();
    this.surface.redraw();
  }

  // ---- what React hands in ----

  setContext(period: Period, tick: number, colors: DrawingColors): void {
    this.period = period;
    this.tick = tick;
    this.colors = colors;
    this.surface.redraw();
  }

  setDrawings(drawings: readonly Drawing[]): void {
    this.drawings = drawings;
    this.grab.listed(drawings, this.gestures.active !== null);
    const saved = this.saves.listed(drawings);
    if (saved !== null) this.selection.select(saved);
    this.selection.relist();
    this.markState();
    this.surface.redraw();
  }

  /** Arms a tool (the same tool again disarms it); a drawing being drawn is dropped. */
  setTool(tool: DrawingTool | null): void {
    const next = this.pen.tool === tool ? null : tool;
    this.pen.drop();
    if (next) this.selection.select(null);
    this.pen.arm(next);
    this.surface.arm(next !== null);
    this.markState();
    this.surface.redraw();
  }

  /** Gives the selected drawing a new style (colour, width, line, a rectangle's fill). */
  restyleSelected(change: Partial<DrawingStyle>): void {
    this.selection.restyle(change);
  }

  deleteSelected(): void {
    this.selection.delete();
  }

  /** Something Escape undoes: a drawing being drawn, an armed tool, a measurement. */
  escapable(): boolean {
    return this.pen.busy;
  }

  /** Escape: the drawing being drawn, else the armed tool, else the selection and measure. */
  cancel(): void {
    this.gestures.end();
    if (!this.pen.drop()) {
      if (this.pen.tool) this.setTool(null);
      else {
        this.selection.select(null);
        this.pen.clearMeasure();
      }
    }
    this.surface.redraw();
  }

  dispose(): void {
    this.detach();
    this.selection.release();
  }

  private axis() {
    return { bars: this.bars, period: this.period, tick: this.tick };
  }

  /** What the chart's container tells styles and tests: drawings, selection, armed tool. */
  private markState(): void {
    this.surface.mark({
      drawings: String(this.drawings.length),
      drawingSelected: String(this.selection.id ?? ''),
      drawingTool: this.pen.tool ?? '',
    });
  }

  /** The chart calls it before each redraw. */
  private layout(): void {
    const shown = shownDrawings({
      drawings: this.drawings,
      moving: this.grab.moving,
      selectedId: this.selection.id,
      replayTo: this.replayTo,
      drawnInReplay: this.drawnInReplay,
      saving: this.saves.saving,
      drafted: this.pen.drafted,
    });
    // what the last layout drew of the saved drawings: how many, and their latest point
    const { count, to } = shownSummary(shown);
    this.surface.mark({ drawingsShown: count, drawingsTo: to });
    const { projection } = this.surface;
    const { screen, items, priceLabels } = layoutDrawings(shown, projection, this.tick);
    this.grab.screen = screen;
    const { background, text, fontFamily, up, down } = this.colors;
    const pane = this.surface.paneSize();
    const measure = this.pen.measureView(projection, this.tick, { up, down }, pane);
    const model = { items, measure, handleFill: background, labelColor: text };
    this.surface.show({ ...model, font: `11px ${fontFamily}` }, priceLabels);
  }

  // ---- what the pointer does (called by `gestures`) ----

  private press(at: Point, pointerType: string): GestureStart | null {
    const tool = this.pen.tool;
    if (!tool && this.pen.measuring) {
      this.pen.clearMeasure();
      this.surface.redraw();
    }
    const anchor = this.surface.anchorAt(at);
    if (!anchor) return null;
    if (!tool) return this.grab.press(at, anchor, pointerType);
    this.pen.press(tool, anchor);
    this.surface.redraw();
    return { kind: 'draw', startAnchor: anchor };
  }

  private drag(gesture: Gesture, anchor: Anchor): void {
    if (gesture.kind === 'draw') this.pen.drag(anchor);
    else this.grab.drag(gesture, anchor);
    this.surface.redraw();
  }

  private release(gesture: Gesture): void {
    if (gesture.kind === 'move') {
      this.grab.release(gesture);
      this.surface.redraw();
      return;
    }
    const { finished, shape } = this.pen.release(gesture.moved);
    if (!finished) return;
    this.surface.arm(false);
    if (shape) this.saves.saving = shape;
    this.markState();
    this.surface.redraw();
    if (shape) this.saves.send(shape);
  }

  private abort(gesture: Gesture): void {
    if (gesture.kind === 'move') this.grab.abort();
    else this.pen.drop();
    this.surface.redraw();
  }
}
