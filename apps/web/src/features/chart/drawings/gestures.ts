import type { Drawing } from '@ct/domain';
import type { IChartApi } from 'lightweight-charts';
import { PointerGesture, pointIn } from '../pointerGesture';
import type { Hit } from './geometry';
import type { Anchor } from './shapes';

/*
 * The pointer on the drawing layer: a press in the price pane that draws or grabs becomes a
 * gesture the chart never sees (so it does not scroll), followed until release; a move
 * under the click slop is a click or tap. The layer decides what a press does (`press`)
 * and what a drag, hover, release or cancel changes.
 */

/** A pointer this close (px) to a drawing grabs it: fingers are less precise than a mouse. */
export const REACH_PX = { mouse: 6, touch: 14 } as const;
/** A press that moves less than this (px) is a click or tap. */
export const CLICK_SLOP_PX = 4;

export type Point = { x: number; y: number };
export type PaneSize = { width: number; height: number };

export type Gesture = {
  pointerId: number;
  kind: 'draw' | 'move';
  start: Point;
  startAnchor: Anchor;
  moved: boolean;
  /** Move: the drawing as it was when grabbed and what was grabbed. */
  hit?: Hit;
  original?: Drawing;
};

/** What a press starts: drawing, or moving what it hit. */
export type GestureStart = Pick<Gesture, 'kind' | 'startAnchor' | 'hit' | 'original'>;

export type GestureHost = {
  /** The time and price under a point of the pane; null where there is no bar. */
  anchorAt(at: Point): Anchor | null;
  paneSize(): PaneSize;
  /** A press in the pane: what it starts, or null to leave it to the chart. */
  press(at: Point, pointerType: string): GestureStart | null;
  drag(gesture: Gesture, anchor: Anchor): void;
  hover(anchor: Anchor): void;
  release(gesture: Gesture): void;
  abort(gesture: Gesture): void;
};

/** How close a pointer of this type must be to grab a drawing (px). */
export const reachOf = (pointerType: string): number =>
  pointerType === 'mouse' ? REACH_PX.mouse : REACH_PX.touch;

export const inPane = ({ x, y }: Point, { width, height }: PaneSize): boolean =>
  x >= 0 && y >= 0 && x <= width && y <= height;

/** True once the pointer went at least the click slop away from where it was pressed. */
export const pastSlop = (start: Point, at: Point): boolean =>
  Math.hypot(at.x - start.x, at.y - start.y) >= CLICK_SLOP_PX;

export class DrawingGestures {
  private chart: IChartApi | null = null;
  private current: Gesture | null = null;
  private readonly pointer = new PointerGesture({
    down: (event) => this.onDown(event),
    move: (event) => this.onMove(event),
    hover: (event) => this.onHover(event),
    up: (event) => this.onUp(event),
    cancel: (event) => this.onCancel(event),
  });

  constructor(private readonly host: GestureHost) {}

  /** The gesture running now, if any. */
  get active(): Gesture | null {
    return this.current;
  }

  attach(chart: IChartApi, element: HTMLElement): void {
    this.chart = chart;
    this.pointer.attach(chart, element);
  }

  detach(): void {
    if (this.current) this.end();
    this.pointer.detach();
    this.chart = null;
  }

  /** Ends the running gesture (the chart scrolls again) and gives it back. */
  end(): Gesture | null {
    const gesture = this.current;
    if (!gesture) return null;
    this.current = null;
    this.pointer.end();
    return gesture;
  }

  /** Pointer position relative to the chart's element (its top-left is the pane's). */
  private local(event: PointerEvent): Point {
    return pointIn(this.chart?.chartElement(), event);
  }

  private onDown(event: PointerEvent): void {
    if (this.current) return;
    const at = this.local(event);
    if (!inPane(at, this.host.paneSize())) return;
    const start = this.host.press(at, event.pointerType);
    if (!start) return;
    // The chart must not scroll or zoom under the pointer while it draws or moves.
    if (!this.pointer.start(event)) return;
    this.current = { ...start, start: at, pointerId: event.pointerId, moved: false };
    event.preventDefault();
    event.stopPropagation();
  }

  private onHover(event: PointerEvent): void {
    const anchor = this.host.anchorAt(this.local(event));
    if (anchor) this.host.hover(anchor);
  }

  private onMove(event: PointerEvent): void {
    const gesture = this.current;
    if (!gesture) return;
    const at = this.local(event);
    if (pastSlop(gesture.start, at)) gesture.moved = true;
    const anchor = this.host.anchorAt(at);
    if (anchor) this.host.drag(gesture, anchor);
  }

  private onUp(event: PointerEvent): void {
    if (this.current?.pointerId !== event.pointerId) return;
    const gesture = this.end()!;
    this.host.release(gesture);
  }

  private onCancel(event: PointerEvent): void {
    if (this.current?.pointerId !== event.pointerId) return;
    const gesture = this.end()!;
    this.host.abort(gesture);
  }
}
