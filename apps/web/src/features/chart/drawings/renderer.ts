import type { DrawingKind, DrawingLineStyle } from '@ct/domain';
import type { IPrimitivePaneRenderer } from 'lightweight-charts';
import { withAlpha } from '../../../shared/chartTheme';
import type { ScreenPoint } from './geometry';

/** What one drawing looks like on screen, in px of the price pane. */
export type RenderItem = {
  kind: DrawingKind;
  color: string;
  width: number;
  line: DrawingLineStyle;
  /** A rectangle's fill opacity (0: none). */
  fill: number;
  points: readonly ScreenPoint[];
  selected: boolean;
  /** Retracement levels: y and label of each. */
  levels?: readonly { y: number | null; label: string }[];
};

export type RenderModel = {
  items: readonly RenderItem[];
  /** The measuring tool's span, coloured by direction. */
  measure: { a: ScreenPoint; b: ScreenPoint; color: string } | null;
  /** Fill of the handles of a selected drawing (the chart's background). */
  handleFill: string;
  /** Text of retracement labels: the chart's text colour reads on both themes. */
  labelColor: string;
  font: string;
};

type Target = Parameters<IPrimitivePaneRenderer['draw']>[0];

const DASHES: Record<DrawingLineStyle, number[]> = {
  solid: [],
  dashed: [6, 4],
  dotted: [2, 3],
};
/** Radius of a handle (px). */
export const HANDLE_RADIUS = 5;

function isPlaced(p: ScreenPoint | undefined): p is { x: number; y: number } {
  return p !== undefined && p.x !== null && p.y !== null;
}

function drawItem(
  ctx: CanvasRenderingContext2D,
  item: RenderItem,
  w: number,
  h: number,
  model: RenderModel,
) {
  const [a, b] = item.points;
  ctx.strokeStyle = item.color;
  ctx.lineWidth = item.width;
  ctx.setLineDash(DASHES[item.line]);
  ctx.beginPath();
  switch (item.kind) {
    case 'horizontal':
      if (a?.y === null || a?.y === undefined) return;
      ctx.moveTo(0, a.y);
      ctx.lineTo(w, a.y);
      ctx.stroke();
      return;
    case 'vertical':
      if (a?.x === null || a?.x === undefined) return;
      ctx.moveTo(a.x, 0);
      ctx.lineTo(a.x, h);
      ctx.stroke();
      return;
    case 'trend':
      if (!isPlaced(a) || !isPlaced(b)) return;
      ctx.moveTo(a.x, a.y);
      ctx.lineTo(b.x, b.y);
      ctx.stroke();
      return;
    case 'rectangle': {
      if (!isPlaced(a) || !isPlaced(b)) return;
      const x = Math.min(a.x, b.x);
      const y = Math.min(a.y, b.y);
      if (item.fill > 0) {
        ctx.fillStyle = withAlpha(item.color, item.fill);
        ctx.fillRect(x, y, Math.abs(b.x - a.x), Math.abs(b.y - a.y));
      }
      ctx.strokeRect(x, y, Math.abs(b.x - a.x), Math.abs(b.y - a.y));
      return;
    }
    case 'fibonacci': {
      if (!isPlaced(a) || !isPlaced(b)) return;
      const left = Math.min(a.x, b.x);
      const right = Math.max(a.x, b.x);
      const top = Math.min(a.y, b.y);
      ctx.fillStyle = withAlpha(item.color, 0.06);
      ctx.fillRect(left, top, right - left, Math.abs(b.y - a.y));
      ctx.font = model.font;
      ctx.textBaseline = 'bottom';
      for (const level of item.levels ?? []) {
        if (level.y === null) continue;
        ctx.beginPath();
        ctx.moveTo(left, level.y);
        ctx.lineTo(right, level.y);
        ctx.stroke();
        ctx.fillStyle = model.labelColor;
        ctx.fillText(level.label, left + 4, level.y - 2);
      }
      ctx.setLineDash([4, 4]);
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(a.x, a.y);
      ctx.lineTo(b.x, b.y);
      ctx.stroke();
      return;
    }
  }
}

function drawHandles(
  ctx: CanvasRenderingContext2D,
  item: RenderItem,
  fill: string,
  w: number,
  h: number,
) {
  ctx.setLineDash([]);
  ctx.lineWidth = 2;
  ctx.strokeStyle = item.color;
  ctx.fillStyle = fill;
  const [a] = item.points;
  // a horizontal or vertical line shows one handle where its point meets the pane's middle
  const points =
    item.kind === 'horizontal'
      ? [{ x: w / 2, y: a?.y ?? null }]
      : item.kind === 'vertical'
        ? [{ x: a?.x ?? null, y: h / 2 }]
        : item.points;
  for (const p of points) {
    if (!isPlaced(p)) continue;
    ctx.beginPath();
    ctx.arc(p.x, p.y, HANDLE_RADIUS, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
  }
}

function drawMeasure(ctx: CanvasRenderingContext2D, measure: NonNullable<RenderModel['measure']>) {
  const { a, b, color } = measure;
  if (!isPlaced(a) || !isPlaced(b)) return;
  ctx.setLineDash([]);
  ctx.fillStyle = withAlpha(color, 0.16);
  ctx.fillRect(Math.min(a.x, b.x), Math.min(a.y, b.y), Math.abs(b.x - a.x), Math.abs(b.y - a.y));
  ctx.strokeStyle = color;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.moveTo(a.x, a.y);
  ctx.lineTo(b.x, b.y);
  ctx.stroke();
  // an arrow head at B
  const angle = Math.atan2(b.y - a.y, b.x - a.x);
  ctx.beginPath();
  ctx.moveTo(b.x, b.y);
  ctx.lineTo(b.x - 8 * Math.cos(angle - 0.4), b.y - 8 * Math.sin(angle - 0.4));
  ctx.lineTo(b.x - 8 * Math.cos(angle + 0.4), b.y - 8 * Math.sin(angle + 0.4));
  ctx.closePath();
  ctx.fillStyle = color;
  ctx.fill();
}

/** Draws the model on the price pane, in CSS pixels. */
export function renderDrawings(target: Target, model: RenderModel): void {
  target.useMediaCoordinateSpace(({ context: ctx, mediaSize }) => {
    ctx.save();
    ctx.lineCap = 'round';
    for (const item of model.items) {
      drawItem(ctx, item, mediaSize.width, mediaSize.height, model);
    }
    for (const item of model.items) {
      if (item.selected)
        drawHandles(ctx, item, model.handleFill, mediaSize.width, mediaSize.height);
    }
    if (model.measure) drawMeasure(ctx, model.measure);
    ctx.restore();
  });
}
