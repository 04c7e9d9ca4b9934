import type { Drawing, DrawingKind, DrawingShape, DrawingStyle } from '@ct/domain';
import type { StoreApi } from 'zustand/vanilla';
import { sameStyle, shapeOf } from './shapes';

/*
 * The selected drawing and the keys that act on it. There is one selection over all charts
 * (Delete acts on it, wherever the drawing is): selecting on one chart unselects on the
 * other. Escape steps back (the drawing being drawn, the armed tool, the selection) and
 * Delete or Backspace deletes, unless the key is typed into a field.
 */

/** What the style bar shows of the selected drawing. */
export type Selected = { id: number; kind: DrawingKind; style: DrawingStyle };

export type SelectionHost = {
  drawings(): readonly Drawing[];
  /** The drawing as shown now (a moved one in its new place). */
  current(drawing: Drawing): Drawing;
  /** The selection changed (or was set again): marks and the chart follow. */
  changed(): void;
  /** Saves a restyled drawing. */
  update(id: number, shape: DrawingShape): void;
  remove(id: number): void;
};

/** What the keys act on: a chart's drawing layer. */
export type KeyTarget = {
  /** Something Escape would undo: a drawing being drawn, an armed tool, a measurement. */
  escapable(): boolean;
  cancel(): void;
  deleteSelected(): void;
};

/** The selection holding a drawing, over all charts. */
const holder: { owner: DrawingSelection | null } = { owner: null };

/** The selection of drawing `id` in `drawings`: null when it is not there. */
export function selectedOf(drawings: readonly Drawing[], id: number | null): Selected | null {
  const drawing = id === null ? undefined : drawings.find((x) => x.id === id);
  return drawing ? { id: drawing.id, kind: drawing.kind, style: drawing.style } : null;
}

/** Same drawing with the same style: the style bar need not change. */
export const sameSelected = (a: Selected | null, b: Selected | null): boolean =>
  a?.id === b?.id && sameStyle(a?.style, b?.style);

/** A chart's selection, kept in the store React reads (`selected`). */
export class DrawingSelection {
  constructor(
    private readonly ui: StoreApi<{ selected: Selected | null }>,
    private readonly host: SelectionHost,
  ) {}

  get id(): number | null {
    return this.ui.getState().selected?.id ?? null;
  }

  /** True while this chart holds the one selection. */
  get owned(): boolean {
    return holder.owner === this;
  }

  /** Selects a drawing of this chart (what another chart selected goes), or none. */
  select(id: number | null): void {
    const selected = selectedOf(this.host.drawings(), id);
    if (!sameSelected(this.ui.getState().selected, selected)) this.ui.setState({ selected });
    if (selected) {
      if (holder.owner && holder.owner !== this) holder.owner.select(null);
      holder.owner = this;
    } else if (holder.owner === this) {
      holder.owner = null;
    }
    this.host.changed();
  }

  /** The list changed: a drawing gone (deleted here or elsewhere) is unselected; a restyled one's bar follows. */
  relist(): void {
    const id = this.id;
    if (id !== null) this.select(this.host.drawings().some((x) => x.id === id) ? id : null);
  }

  /** The chart goes away. */
  release(): void {
    if (holder.owner === this) holder.owner = null;
  }

  /**
   * Gives the selected drawing a new style (colour, width, line, a rectangle's fill): shown
   * at once, then saved. A drawing being moved keeps its new place.
   */
  restyle(change: Partial<DrawingStyle>): void {
    const id = this.id;
    const drawing = id === null ? undefined : this.host.drawings().find((x) => x.id === id);
    if (!drawing) return;
    const current = this.host.current(drawing);
    const style: DrawingStyle = { ...current.style, ...change };
    if (sameStyle(style, current.style)) return;
    this.host.update(drawing.id, shapeOf(current.kind, current.points, style));
  }

  /** Deletes the selected drawing. */
  delete(): void {
    const id = this.id;
    if (id === null) return;
    this.select(null);
    this.host.remove(id);
  }
}

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
}

/** Escape and Delete on the document for a chart; gives back what stops listening. */
export function listenKeys(target: KeyTarget, selection: DrawingSelection): () => void {
  const onKeyDown = (event: KeyboardEvent): void => {
    if (isEditable(event.target)) return;
    if (event.key === 'Escape') {
      if (target.escapable() || selection.owned) target.cancel();
      return;
    }
    if ((event.key === 'Delete' || event.key === 'Backspace') && selection.owned) {
      event.preventDefault();
      target.deleteSelected();
    }
  };
  document.addEventListener('keydown', onKeyDown);
  return () => document.removeEventListener('keydown', onKeyDown);
}
