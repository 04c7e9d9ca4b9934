import type { Drawing, DrawingShape } from '@ct/domain';
import { hitTest, type Hit, type ScreenDrawing } from './geometry';
import { REACH_PX, reachOf, type Gesture, type GestureStart, type Point } from './gestures';
import { moveDrawing, shapeOf, type Anchor, type TimeAxis } from './shapes';

/*
 * Grabbing a saved drawing and moving it: the hit test of a press (and of the mouse, for
 * the cursor) against the drawings as last laid out on screen, selecting what a press
 * grabs, and the moved drawing, shown in its new place from the first drag until the list
 * of drawings holds the moved version (it is saved on release).
 */

export type GrabHost = {
  drawings(): readonly Drawing[];
  selectedId(): number | null;
  select(id: number | null): void;
  axis(): TimeAxis;
  /** Saves a moved drawing. */
  update(id: number, shape: DrawingShape): void;
};

export class DrawingGrab {
  /** The drawings as the last layout placed them (px of the pane). */
  screen: ScreenDrawing[] = [];
  /** The drawing being moved, or just moved and not yet listed so. */
  moving: Drawing | null = null;

  constructor(private readonly host: GrabHost) {}

  /** The drawing or handle under the mouse at (x, y), if any. */
  hoverAt(x: number, y: number): Hit | null {
    return hitTest(this.screen, this.host.selectedId(), x, y, REACH_PX.mouse);
  }

  /**
   * A press with no tool armed: the drawing under it is selected and grabbed; elsewhere the
   * selection goes and the press is left to the chart (null), which scrolls as usual.
   */
  press(at: Point, anchor: Anchor, pointerType: string): GestureStart | null {
    const hit = hitTest(this.screen, this.host.selectedId(), at.x, at.y, reachOf(pointerType));
    if (!hit) {
      if (this.host.selectedId() !== null) this.host.select(null);
      return null;
    }
    this.host.select(hit.id);
    const original = this.host.drawings().find((x) => x.id === hit.id);
    if (!original) return null;
    return { kind: 'move', startAnchor: anchor, hit, original };
  }

  drag(gesture: Gesture, anchor: Anchor): void {
    const { original, hit, startAnchor } = gesture;
    if (!original || !hit || !gesture.moved) return;
    this.moving = moveDrawing(original, hit, startAnchor, anchor, this.host.axis());
  }

  /** Saved when the pointer moved the drawing, else forgotten. */
  release(gesture: Gesture): void {
    const moving = this.moving;
    if (gesture.moved && moving && gesture.original) {
      this.host.update(moving.id, shapeOf(moving.kind, moving.points, moving.style));
    } else {
      this.moving = null;
    }
  }

  abort(): void {
    this.moving = null;
  }

  /**
   * A new list of drawings came: the moved drawing it holds as moved (or no longer holds)
   * is shown from the list again, unless it is still being dragged.
   */
  listed(drawings: readonly Drawing[], dragging: boolean): void {
    const moving = this.moving;
    if (!moving || dragging) return;
    const listed = drawings.find((x) => x.id === moving.id);
    if (!listed || JSON.stringify(listed.points) === JSON.stringify(moving.points)) {
      this.moving = null;
    }
  }

  /** The drawing as shown now: moved, or as listed. */
  current(drawing: Drawing): Drawing {
    return this.moving?.id === drawing.id ? this.moving : drawing;
  }
}
