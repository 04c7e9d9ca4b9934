import type { IChartApi } from 'lightweight-charts';

/*
 * A press on a chart that belongs to something drawn over it (a drawing, a trade line), not
 * to the chart: the chart must neither scroll nor zoom while the pointer moves, its own
 * mousedown/touchstart handlers must not see the press, and a finger must not scroll the
 * page. Shared by the drawing layer and the trade-lines layer, which each decide what a
 * press grabs. Mouse, pen and touch are one pointer-event path.
 */

/** What the layer does with the pointer; the gesture calls these in the capture phase. */
export type PointerGestureHandlers = {
  /** A press while no gesture runs (a mouse's primary button only): `start` it to take it. */
  down(event: PointerEvent): void;
  /** A move of the gesture's pointer (stopped from reaching the chart). */
  move(event: PointerEvent): void;
  /** A move while no gesture runs (hover). */
  hover?(event: PointerEvent): void;
  /** The gesture's pointer was released (stopped from reaching the chart); `end` it. */
  up(event: PointerEvent): void;
  /** The browser cancelled the gesture's pointer; `end` it. */
  cancel(event: PointerEvent): void;
};

/** A pointer's position relative to `element`'s top-left (the price pane's, for the chart's element). */
export function pointIn(
  element: Element | null | undefined,
  event: PointerEvent | MouseEvent,
): { x: number; y: number } {
  const box = element?.getBoundingClientRect() ?? { left: 0, top: 0 };
  return { x: event.clientX - box.left, y: event.clientY - box.top };
}

type Active = {
  pointerId: number;
  pointerType: string;
  restore: { handleScroll: unknown; handleScale: unknown };
};

export class PointerGesture {
  private chart: IChartApi | null = null;
  private element: HTMLElement | null = null;
  private active: Active | null = null;
  /** A finger's gesture just ended: its touchend must not become a click (see onTouchEnd). */
  private swallowTouchEnd = false;

  constructor(private readonly handlers: PointerGestureHandlers) {}

  /** Listens on `element` (the chart's element or its container), in the capture phase. */
  attach(chart: IChartApi, element: HTMLElement): void {
    this.chart = chart;
    this.element = element;
    element.addEventListener('pointerdown', this.onPointerDown, true);
    element.addEventListener('pointermove', this.onPointerMove, true);
    element.addEventListener('pointerup', this.onPointerUp, true);
    element.addEventListener('pointercancel', this.onPointerCancel, true);
    element.addEventListener('mousedown', this.onPress, true);
    element.addEventListener('touchstart', this.onPress, true);
    element.addEventListener('touchmove', this.onTouchMove, { capture: true, passive: false });
    element.addEventListener('touchend', this.onTouchEnd, { capture: true, passive: false });
  }

  /** Stops listening; a running gesture ends first (the chart's scrolling comes back). */
  detach(): void {
    this.end();
    const el = this.element;
    if (el) {
      el.removeEventListener('pointerdown', this.onPointerDown, true);
      el.removeEventListener('pointermove', this.onPointerMove, true);
      el.removeEventListener('pointerup', this.onPointerUp, true);
      el.removeEventListener('pointercancel', this.onPointerCancel, true);
      el.removeEventListener('mousedown', this.onPress, true);
      el.removeEventListener('touchstart', this.onPress, true);
      el.removeEventListener('touchmove', this.onTouchMove, true);
      el.removeEventListener('touchend', this.onTouchEnd, true);
    }
    this.chart = null;
    this.element = null;
  }

  /** True while a gesture runs. */
  get running(): boolean {
    return this.active !== null;
  }

  /** The pointer of the running gesture, or null. */
  get pointerId(): number | null {
    return this.active?.pointerId ?? null;
  }

  /**
   * Takes the pointer of `event` until `end`: the chart's scrolling and scaling go off (what
   * they were comes back at the end), the press's mousedown/touchstart are kept from the
   * chart, and the pointer is captured. False when there is no chart to take it from. The
   * layer stops the event itself when it was pressed on the chart.
   */
  start(event: PointerEvent): boolean {
    const chart = this.chart;
    if (!chart || this.active) return false;
    const options = chart.options();
    this.active = {
      pointerId: event.pointerId,
      pointerType: event.pointerType,
      restore: { handleScroll: options.handleScroll, handleScale: options.handleScale },
    };
    chart.applyOptions({ handleScroll: false, handleScale: false });
    try {
      this.element?.setPointerCapture(event.pointerId);
    } catch {
      // a synthetic or already finished pointer cannot be captured; its moves still arrive
    }
    return true;
  }

  /** Ends the running gesture: the chart scrolls and scales as before. False when none ran. */
  end(): boolean {
    const active = this.active;
    if (!active) return false;
    this.active = null;
    this.swallowTouchEnd = active.pointerType === 'touch';
    this.chart?.applyOptions(active.restore as Parameters<IChartApi['applyOptions']>[0]);
    try {
      if (this.element?.hasPointerCapture(active.pointerId)) {
        this.element.releasePointerCapture(active.pointerId);
      }
    } catch {
      // nothing captured
    }
    return true;
  }

  private readonly onPointerDown = (event: PointerEvent): void => {
    if (this.active || (event.pointerType === 'mouse' && event.button !== 0)) return;
    this.handlers.down(event);
  };

  private readonly onPointerMove = (event: PointerEvent): void => {
    const active = this.active;
    if (!active) {
      this.handlers.hover?.(event);
      return;
    }
    if (event.pointerId !== active.pointerId) return;
    event.stopPropagation();
    this.handlers.move(event);
  };

  private readonly onPointerUp = (event: PointerEvent): void => {
    if (this.active?.pointerId !== event.pointerId) return;
    event.stopPropagation();
    this.handlers.up(event);
  };

  private readonly onPointerCancel = (event: PointerEvent): void => {
    if (this.active?.pointerId !== event.pointerId) return;
    this.handlers.cancel(event);
  };

  /** The press that started a gesture never reaches the chart's own handlers. */
  private readonly onPress = (event: Event): void => {
    if (event.type === 'touchstart') this.swallowTouchEnd = false;
    if (this.active) event.stopPropagation();
  };

  /**
   * A short drag of a finger (under the browser's tap slop) ends as a tap: the browser would
   * click whatever is under the finger when it lifts, such as the Confirm that the drop has
   * just put there. The touchend of a finger's gesture is cancelled, and with it that click.
   */
  private readonly onTouchEnd = (event: TouchEvent): void => {
    if (this.active?.pointerType === 'touch' || this.swallowTouchEnd) {
      this.swallowTouchEnd = false;
      if (event.cancelable) event.preventDefault();
    }
  };

  private readonly onTouchMove = (event: TouchEvent): void => {
    // the page must not scroll while a finger draws or drags
    if (this.active) {
      event.preventDefault();
      event.stopPropagation();
    }
  };
}
