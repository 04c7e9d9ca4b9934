import { fibonacciLevels, formatPrice, rectangleFillOf, type DrawingPoint } from '@ct/domain';
import type { ScreenDrawing, ScreenPoint } from './geometry';
import type { RenderItem } from './renderer';
import type { ShownDrawing } from './shapes';

/*
 * Where the shown drawings go on screen (pure): each point placed by the chart's scales
 * (handed in as a projection), what the renderer draws, what the price axis labels, and
 * what the chart's element tells the tests about the saved drawings shown.
 */

/** The chart's scales: x of a time (epoch s), y of a price; null where they cannot place it. */
export type Projection = {
  x(time: number): number | null;
  y(price: number): number | null;
};

/** A label on the price axis (a horizontal line's price). */
export type PriceLabel = { y: number; text: string; color: string };

export type DrawingsLayout = {
  screen: ScreenDrawing[];
  items: RenderItem[];
  priceLabels: PriceLabel[];
};

export function placePoints(
  points: readonly DrawingPoint[],
  projection: Projection,
): ScreenPoint[] {
  return points.map((p) => ({ x: projection.x(p.time), y: projection.y(p.price) }));
}

/** Lays the drawings out: what a pointer can hit, what is drawn, the price axis labels. */
export function layoutDrawings(
  shown: readonly ShownDrawing[],
  projection: Projection,
  tick: number,
): DrawingsLayout {
  const screen: ScreenDrawing[] = [];
  const items: RenderItem[] = [];
  const priceLabels: PriceLabel[] = [];
  for (const { id, shape, selected } of shown) {
    const points = placePoints(shape.points, projection);
    screen.push({ id, kind: shape.kind, points });
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
        y: projection.y(level.price),
        label: `${level.ratio} (${formatPrice(level.price, tick)})`,
      }));
    }
    items.push(item);
    const y = points[0]?.y;
    if (shape.kind === 'horizontal' && y !== null && y !== undefined) {
      priceLabels.push({
        y,
        text: formatPrice(shape.points[0]!.price, tick),
        color: shape.style.color,
      });
    }
  }
  return { screen, items, priceLabels };
}

/** How many saved drawings are shown and their latest point's time ('' when none). */
export function shownSummary(shown: readonly ShownDrawing[]): { count: string; to: string } {
  const saved = shown.filter((x) => x.id !== null);
  const latest = Math.max(...saved.flatMap((x) => x.shape.points.map((p) => p.time)));
  return { count: String(saved.length), to: saved.length > 0 ? String(latest) : '' };
}
