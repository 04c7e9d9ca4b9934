import type { DrawingShape } from '@ct/domain';
import type { StoreApi } from 'zustand/vanilla';
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
import type { PaneSize } from './gestures';
import { placePoints, type Projection } from './layout';
import { measureReadout, sameReadout, spanUp, type MeasureReadout } from './readout';
import type { RenderModel } from './renderer';
import type { Anchor } from './shapes';

/*
 * The armed tool and what it draws: the drawing being drawn (press, drag, hover while it
 * waits for its second click, release) and the measuring tool's span, kept once released
 * until the next press or Escape. The tool and the measuring tool's text are in the store
 * React reads; the measuring line goes to the renderer.
 */

/** The part of the layer's store the pen keeps. */
export type PenUi = { tool: DrawingTool | null; measure: MeasureReadout | null };

export type PenHost = {
  /** The measurement was cleared: the chart's container marks follow. */
  cleared(): void;
};

/** What a release did: `finished` disarms the tool; `shape` is the drawing to save, if any. */
export type PenRelease = { finished: boolean; shape: DrawingShape | null };

export class DrawingPen {
  private draft: Draft | null = null;
  /** The measuring tool's span once released. */
  private measured: [Anchor, Anchor] | null = null;

  constructor(
    private readonly ui: StoreApi<PenUi>,
    private readonly host: PenHost,
  ) {}

  get tool(): DrawingTool | null {
    return this.ui.getState().tool;
  }

  /** The shape being drawn, to show (null for the measuring tool). */
  get drafted(): DrawingShape | null {
    return draftShape(this.draft);
  }

  /** Something Escape undoes: a drawing being drawn, an armed tool, a measurement. */
  get busy(): boolean {
    return this.draft !== null || this.tool !== null || this.measured !== null;
  }

  get measuring(): boolean {
    return this.measured !== null;
  }

  /** Arms `tool` or none (after `drop`); a measurement goes unless measuring again. */
  arm(tool: DrawingTool | null): void {
    if (tool !== 'measure') this.clearMeasure();
    this.ui.setState({ tool });
  }

  /** Drops the drawing being drawn; true when there was one. */
  drop(): boolean {
    const had = this.draft !== null;
    this.draft = null;
    return had;
  }

  clearMeasure(): void {
    if (!this.measured && !this.ui.getState().measure) return;
    this.measured = null;
    this.ui.setState({ measure: null });
    this.host.cleared();
  }

  /** A press with `tool` armed: a drawing starts, or the waiting one gets its next point. */
  press(tool: DrawingTool, at: Anchor): void {
    if (!this.draft) this.clearMeasure();
    this.draft = pressDraft(this.draft, tool, at);
  }

  drag(at: Anchor): void {
    if (this.draft) this.draft = dragDraft(this.draft, at);
  }

  /** The pointer moved with no button down; true when a waiting drawing follows it. */
  hover(at: Anchor): boolean {
    if (!this.draft?.waiting) return false;
    this.draft = hoverDraft(this.draft, at);
    return true;
  }

  /** The pointer was released: a click (no drag) on a two-point tool waits for the next. */
  release(moved: boolean): PenRelease {
    const draft = this.draft;
    if (!draft) return { finished: false, shape: null };
    if (releaseDraft(draft, moved) === 'wait') {
      this.draft = { ...draft, waiting: true };
      return { finished: false, shape: null };
    }
    this.draft = null;
    this.ui.setState({ tool: null });
    const shape = draftShape(draft);
    if (!shape) this.measured = draftSpan(draft);
    return { finished: true, shape };
  }

  /** The measuring line to draw, if any; its text goes to the store after the paint. */
  measureView(
    projection: Projection,
    tick: number,
    colors: { up: string; down: string },
    pane: PaneSize,
  ): RenderModel['measure'] {
    const span = this.measured ?? draftSpan(this.draft);
    if (!span) return null;
    const [a, b] = span;
    const [pa, pb] = placePoints([a, b], projection);
    this.showReadout(measureReadout(a, b, pb!, tick, pane));
    return { a: pa!, b: pb!, color: spanUp(a, b) ? colors.up : colors.down };
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
}
