import type { Drawing, DrawingShape } from '@ct/domain';

/*
 * A new drawing's way to the server and back: shown as drawn while the server has not
 * answered, and selected once the list of drawings holds it. Saving itself is the host's
 * (the API through TanStack Query, see `queries`).
 */

export type SavesHost = {
  /** Saves a drawn shape; the answer is the saved drawing, or null. */
  create(shape: DrawingShape): Promise<Drawing | null>;
  /** Whether the list of drawings holds `id` now. */
  listed(id: number): boolean;
  /** The server answered; `listed`: the list holds the drawing already (select it). */
  answered(saved: Drawing | null, listed: boolean): void;
};

export class DrawingSaves {
  /** A drawing waiting for the server's answer after it was drawn. */
  saving: DrawingShape | null = null;
  /** The id of the drawing just saved: selected once the list holds it. */
  private savedId: number | null = null;

  constructor(private readonly host: SavesHost) {}

  /** A new list of drawings came: the id of the drawing just saved if it holds it, else null. */
  listed(drawings: readonly Drawing[]): number | null {
    const savedId = this.savedId;
    if (savedId === null || !drawings.some((x) => x.id === savedId)) return null;
    this.saving = null;
    this.savedId = null;
    return savedId;
  }

  /** Saves the drawn shape shown as `saving` until the server answers. */
  send(shape: DrawingShape): void {
    void this.host.create(shape).then((saved) => {
      if (this.saving !== shape) return; // dropped meanwhile
      const listed = saved !== null && this.host.listed(saved.id);
      if (!saved || listed) this.saving = null;
      else this.savedId = saved.id; // selected when the list comes (`listed`)
      this.host.answered(saved, listed);
    });
  }
}
