import type { DrawingKind } from '@ct/domain';

/*
 * Drawings on screen: each point placed in px on the price pane (x from the time scale, y
 * from the price scale; null where the chart cannot place it), and which drawing or handle
 * a pointer at (x, y) is on.
 */

export type ScreenPoint = { x: number | null; y: number | null };

export type ScreenDrawing = {
  /** The saved drawing's id; a drawing being drawn has none. */
  id: number | null;
  kind: DrawingKind;
  points: readonly ScreenPoint[];
};

export type Hit = {
  id: number;
  /** Index of the grabbed point; null: the whole drawing. */ handle: number | null;
};

/** Distance (px) from (px, py) to the segment from a to b. */
export function distanceToSegment(
  px: number,
  py: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): number {
  const dx = bx - ax;
  const dy = by - ay;
  const length2 = dx * dx + dy * dy;
  const t =
    length2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / length2));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

function placed(p: ScreenPoint | undefined): p is { x: number; y: number } {
  return p !== undefined && p.x !== null && p.y !== null;
}

/** True when (x, y) is on the drawing, within `reach` px of its lines (a rectangle: inside too). */
export function isOnDrawing(d: ScreenDrawing, x: number, y: number, reach: number): boolean {
  const [a, b] = d.points;
  switch (d.kind) {
    case 'horizontal':
      return a?.y !== null && a?.y !== undefined && Math.abs(a.y - y) <= reach;
    case 'vertical':
      return a?.x !== null && a?.x !== undefined && Math.abs(a.x - x) <= reach;
    case 'trend':
      return placed(a) && placed(b) && distanceToSegment(x, y, a.x, a.y, b.x, b.y) <= reach;
    case 'rectangle': {
      if (!placed(a) || !placed(b)) return false;
      const left = Math.min(a.x, b.x) - reach;
      const right = Math.max(a.x, b.x) + reach;
      const top = Math.min(a.y, b.y) - reach;
      const bottom = Math.max(a.y, b.y) + reach;
      return x >= left && x <= right && y >= top && y <= bottom;
    }
    case 'fibonacci': {
      if (!placed(a) || !placed(b)) return false;
      // the band between its first and last level, over the width it spans
      const left = Math.min(a.x, b.x) - reach;
      const right = Math.max(a.x, b.x) + reach;
      const top = Math.min(a.y, b.y) - reach;
      const bottom = Math.max(a.y, b.y) + reach;
      return x >= left && x <= right && y >= top && y <= bottom;
    }
  }
}

/** Points of a drawing that can be dragged on their own (a horizontal or vertical line has none). */
export function handlesOf(d: ScreenDrawing): readonly ScreenPoint[] {
  return d.kind === 'horizontal' || d.kind === 'vertical' ? [] : d.points;
}

/**
 * What a pointer at (x, y) grabs: a handle of the selected drawing first, then the topmost
 * drawing (the last drawn) it is on. Null: nothing.
 */
export function hitTest(
  drawings: readonly ScreenDrawing[],
  selectedId: number | null,
  x: number,
  y: number,
  reach: number,
): Hit | null {
  const selected = drawings.find((d) => d.id !== null && d.id === selectedId);
  if (selected && selected.id !== null) {
    const handles = handlesOf(selected);
    for (let i = 0; i < handles.length; i++) {
      const h = handles[i];
      if (placed(h) && Math.hypot(h.x - x, h.y - y) <= reach + 2) {
        return { id: selected.id, handle: i };
      }
    }
  }
  for (let i = drawings.length - 1; i >= 0; i--) {
    const d = drawings[i]!;
    if (d.id !== null && isOnDrawing(d, x, y, reach)) return { id: d.id, handle: null };
  }
  return null;
}
