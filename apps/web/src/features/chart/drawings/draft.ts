import { DRAWING_POINTS, type DrawingKind, type DrawingShape } from '@ct/domain';
import { shapeOf, type Anchor } from './shapes';

/*
 * The drawing being drawn (pure): press-drag-release places both points; a click (no drag)
 * with a two-point tool sets the first point and the pointer carries the second until the
 * next click. The measuring tool is drawn the same way but is never saved.
 */

export type DrawingTool = DrawingKind | 'measure';

export type Draft = {
  readonly tool: DrawingTool;
  readonly points: readonly [Anchor, Anchor];
  /** The first point is set by a click: the pointer's moves place the second. */
  readonly waiting: boolean;
};

/** A press with a tool armed: a new draft at the anchor, or the next point of a waiting one. */
export function pressDraft(draft: Draft | null, tool: DrawingTool, at: Anchor): Draft {
  if (!draft) return { tool, points: [at, at], waiting: false };
  return { ...draft, points: [draft.points[0], at] };
}

/** The pointer moved while pressed: a one-point tool follows it, others stretch to it. */
export function dragDraft(draft: Draft, at: Anchor): Draft {
  const onePoint = draft.tool !== 'measure' && DRAWING_POINTS[draft.tool] === 1;
  return { ...draft, points: [onePoint ? at : draft.points[0], at] };
}

/** Between the two clicks of a two-point tool the second point follows the pointer. */
export function hoverDraft(draft: Draft, at: Anchor): Draft {
  return { ...draft, points: [draft.points[0], at] };
}

/** The press was released: still waiting for a second click, or finished. */
export function releaseDraft(draft: Draft, moved: boolean): 'wait' | 'finish' {
  const twoPoints = draft.tool === 'measure' || DRAWING_POINTS[draft.tool] === 2;
  return twoPoints && !moved && !draft.waiting ? 'wait' : 'finish';
}

/** The shape a draft draws (the points its kind needs, no bar index); null for the measure. */
export function draftShape(draft: Draft | null): DrawingShape | null {
  if (!draft || draft.tool === 'measure') return null;
  const kind = draft.tool;
  const points = draft.points
    .slice(0, DRAWING_POINTS[kind])
    .map(({ time, price }) => ({ time, price }));
  return shapeOf(kind, points);
}

/** The span a measuring draft covers, from A to B; null for any other tool. */
export function draftSpan(draft: Draft | null): [Anchor, Anchor] | null {
  if (draft?.tool !== 'measure') return null;
  return [draft.points[0], draft.points[1]];
}
