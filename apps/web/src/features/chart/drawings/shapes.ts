import {
  DEFAULT_DRAWING_STYLE,
  drawingUpTo,
  snapToTick,
  type Bar,
  type Drawing,
  type DrawingKind,
  type DrawingPoint,
  type DrawingShape,
  type DrawingStyle,
  type Period,
} from '@ct/domain';
import type { Hit } from './geometry';
import { logicalOfTime, timeOfIndex } from './timeMap';

/*
 * Drawings as data (pure): a shape from its kind, points and style; a drawing moved by a
 * pointer; and the list of what is shown now (saved, moved, saving and being drawn).
 */

/** A point of a drawing with the index of the bar it is on (moves go by whole bars). */
export type Anchor = DrawingPoint & { index: number };

/** The chart's bars, their period and the instrument's tick: what places a point in time. */
export type TimeAxis = { bars: readonly Bar[]; period: Period; tick: number };

/** One drawing as shown: its id (null while being drawn or saved) and whether selected. */
export type ShownDrawing = { id: number | null; shape: DrawingShape; selected: boolean };

/** The shape sent to the server: only a rectangle keeps a fill. */
export function shapeOf(
  kind: DrawingKind,
  points: DrawingPoint[],
  style: DrawingStyle = DEFAULT_DRAWING_STYLE,
): DrawingShape {
  const { fill, ...line } = style;
  return {
    kind,
    points,
    style: kind === 'rectangle' && fill !== undefined ? { ...line, fill } : line,
  } as DrawingShape;
}

export const sameStyle = (a: DrawingStyle | undefined, b: DrawingStyle | undefined): boolean =>
  a?.color === b?.color && a?.width === b?.width && a?.line === b?.line && a?.fill === b?.fill;

/**
 * `drawing` after the pointer went from `from` to `to` holding `hit`: a handle takes the
 * pointer's point; the whole drawing moves by the bars and the price moved (a horizontal
 * line keeps its time, a vertical one its price), snapped to the tick.
 */
export function moveDrawing(
  drawing: Drawing,
  hit: Hit,
  from: Anchor,
  to: Anchor,
  axis: TimeAxis,
): Drawing {
  const points = drawing.points.map((p, i) => {
    if (hit.handle !== null) return i === hit.handle ? { time: to.time, price: to.price } : p;
    const dIndex = to.index - from.index;
    let time = p.time;
    if (dIndex !== 0 && drawing.kind !== 'horizontal') {
      const logical = logicalOfTime(axis.bars, axis.period, p.time);
      const moved =
        logical === null ? null : timeOfIndex(axis.bars, axis.period, Math.round(logical) + dIndex);
      if (moved !== null) time = Math.round(moved);
    }
    const price =
      drawing.kind === 'vertical'
        ? p.price
        : snapToTick(p.price + (to.price - from.price), axis.tick);
    return { time, price };
  });
  return { ...drawing, points } as Drawing;
}

/**
 * Every drawing as shown now: the list (a moved one in its new place; in a bar replay
 * nothing after the last shown bar except what was drawn during it), then the one waiting
 * for the server, then the one being drawn.
 */
export function shownDrawings(state: {
  drawings: readonly Drawing[];
  moving: Drawing | null;
  selectedId: number | null;
  /** The replay's last shown bar (epoch s); null outside a replay. */
  replayTo: number | null;
  drawnInReplay: ReadonlySet<number>;
  saving: DrawingShape | null;
  drafted: DrawingShape | null;
}): ShownDrawing[] {
  const list: ShownDrawing[] = [];
  for (const x of state.drawings) {
    const drawing = state.moving?.id === x.id ? state.moving : x;
    const shape =
      state.replayTo === null || state.drawnInReplay.has(x.id)
        ? drawing
        : drawingUpTo(drawing, state.replayTo);
    if (shape) list.push({ id: x.id, shape, selected: x.id === state.selectedId });
  }
  if (state.saving) list.push({ id: null, shape: state.saving, selected: false });
  if (state.drafted) list.push({ id: null, shape: state.drafted, selected: true });
  return list;
}
