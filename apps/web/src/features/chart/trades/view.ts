import type { PendingView, PositionView } from '@ct/domain';
import { LineStyle } from 'lightweight-charts';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { getQuote } from '../../../realtime/quotes';
import type { ChartColors } from '../../../shared/chartTheme';
import { notify } from '../../../shared/notify';
import type { Outcome } from '../../../shared/outcome';
import {
  modifyPendingOrder,
  updateTpsl,
  type EditableOrder,
  type PendingChange,
  type TpslEdit,
  editableOrderOf,
} from '../../trading';
import {
  checkExitDrop,
  checkPendingDrop,
  exitEditOf,
  pendingChangeOf,
  snapDragPrice,
  type ExitKind,
  type TradeLine,
} from './model';
import { TradeLinesLayer, type LineDraw, type LinePlaces } from './TradeLinesLayer';

/*
 * The state of one chart's trade lines outside React: the layer on the chart, where its
 * labels go, a drag in progress and a drop waiting for its confirmation. React renders the
 * labels from `state` and hands in the lists; labels are moved here, straight in the DOM,
 * whenever the chart redraws — never through React state per frame.
 */

const LABEL_LEFT = 8;
const LABEL_GAP = 4;

export type TradesViewState = {
  /** The line being dragged and its price under the pointer (on the tick). */
  dragging: { id: string; price: number } | null;
  /** A valid drop waiting for Confirm or Cancel. */
  confirm: { id: string; kind: ExitKind | 'pending'; price: number } | null;
  saving: boolean;
};

export type TradesViewDeps = {
  quote: (symbol: string) => { bid: number; ask: number } | null;
  save: (order: EditableOrder, edit: TpslEdit) => Promise<Outcome>;
  savePending: (pending: PendingView, change: PendingChange) => Promise<Outcome>;
  orderOf: (position: PositionView) => EditableOrder;
  error: (message: string) => void;
};

export const defaultTradesDeps: TradesViewDeps = {
  quote(symbol) {
    const q = getQuote(symbol);
    return q && q.bid !== null && q.ask !== null ? { bid: q.bid, ask: q.ask } : null;
  },
  save: updateTpsl,
  savePending: modifyPendingOrder,
  orderOf: editableOrderOf,
  error: (message) => notify.error(message),
};

/** How a line is drawn: side colours for positions and pending orders, TP green, SL red. */
export function drawOf(line: TradeLine, colors: Pick<ChartColors, 'up' | 'down'>): LineDraw {
  const green = line.kind === 'tp' || (line.kind !== 'sl' && line.side === 'buy');
  return {
    id: line.id,
    price: line.price,
    color: green ? colors.up : colors.down,
    lineStyle:
      line.kind === 'position'
        ? LineStyle.Solid
        : line.kind === 'pending'
          ? LineStyle.Dotted
          : LineStyle.LargeDashed,
    draggable: line.draggable,
  };
}

/**
 * Left offsets of labels so that none covers another: labels sorted by y (their centre), each
 * as far left as it can go without touching a label whose height band it would overlap.
 */
export function arrangeLabels(
  labels: readonly { id: string; y: number; width: number; height: number }[],
): Map<string, number> {
  const placed: { y: number; height: number; right: number }[] = [];
  const lefts = new Map<string, number>();
  for (const label of [...labels].sort((a, b) => a.y - b.y)) {
    let left = LABEL_LEFT;
    for (const other of placed) {
      if (Math.abs(other.y - label.y) < (other.height + label.height) / 2) {
        left = Math.max(left, other.right + LABEL_GAP);
      }
    }
    placed.push({ y: label.y, height: label.height, right: left + label.width });
    lefts.set(label.id, left);
  }
  return lefts;
}

export class TradesView {
  readonly state: StoreApi<TradesViewState> = createStore<TradesViewState>(() => ({
    dragging: null,
    confirm: null,
    saving: false,
  }));
  readonly layer: TradeLinesLayer;
  private readonly labels = new Map<string, HTMLElement>();
  private places: LinePlaces = new Map();
  private lines: readonly TradeLine[] = [];
  private positions: ReadonlyMap<string, PositionView> = new Map();
  private pendings: ReadonlyMap<string, PendingView> = new Map();
  private symbol = '';
  private tick = 0.01;

  constructor(private readonly deps: TradesViewDeps = defaultTradesDeps) {
    this.layer = new TradeLinesLayer({
      place: (places) => {
        this.places = places;
        this.arrange();
      },
      dragMove: (id, price) => this.state.setState({ dragging: { id, price } }),
      drop: (id, price) => this.drop(id, price),
      dragCancel: () => this.state.setState({ dragging: null }),
    });
  }

  /** The lines of the chart's instrument now, and what they are drawn from. */
  update(input: {
    lines: readonly TradeLine[];
    positions: ReadonlyMap<string, PositionView>;
    /** The pending orders by pId (their lines are dragged to change them). */
    pendings?: ReadonlyMap<string, PendingView>;
    symbol: string;
    tick: number;
    colors: Pick<ChartColors, 'up' | 'down'>;
  }): void {
    this.lines = input.lines;
    this.positions = input.positions;
    this.pendings = input.pendings ?? new Map();
    this.symbol = input.symbol;
    this.tick = input.tick;
    this.layer.setTick(input.tick);
    this.layer.setLines(input.lines.map((line) => drawOf(line, input.colors)));
    // A drop waiting for confirmation stays on screen; it ends when its line goes (TP hit…).
    const { confirm, dragging } = this.state.getState();
    if (confirm && !input.lines.some((l) => l.id === confirm.id)) {
      this.state.setState({ confirm: null });
    } else if (confirm) {
      this.layer.showAt(confirm.id, confirm.price);
    }
    // a line moved with the keys stays where the keys put it
    if (dragging && !input.lines.some((l) => l.id === dragging.id)) {
      this.state.setState({ dragging: null });
    } else if (dragging) {
      this.layer.showAt(dragging.id, dragging.price);
    }
  }

  /** The label element of a line (React's ref callback), placed at once. */
  label(id: string, el: HTMLElement | null): void {
    if (el) this.labels.set(id, el);
    else this.labels.delete(id);
    if (el) this.arrange();
  }

  /** Puts every label at its line's y (hidden when the line is off the pane). */
  arrange(): void {
    const shown: { id: string; y: number; width: number; height: number }[] = [];
    for (const [id, el] of this.labels) {
      const y = this.places.get(id);
      if (y === null || y === undefined) {
        el.style.visibility = 'hidden';
        continue;
      }
      shown.push({ id, y, width: el.offsetWidth, height: el.offsetHeight });
    }
    const lefts = arrangeLabels(shown);
    for (const { id, y } of shown) {
      const el = this.labels.get(id)!;
      el.style.visibility = '';
      el.style.transform = `translate(${lefts.get(id) ?? LABEL_LEFT}px, ${y}px) translateY(-50%)`;
      el.dataset.y = String(y);
    }
  }

  /**
   * A TP, SL or pending line was dropped: back with the rule's message, or ask for
   * confirmation.
   */
  drop(id: string, price: number): void {
    this.state.setState({ dragging: null });
    const line = this.lines.find((l) => l.id === id);
    if (line?.kind === 'pending') {
      this.dropPending(line, price);
      return;
    }
    const position = line?.orderId ? this.positions.get(line.orderId) : undefined;
    if (!line || !position || (line.kind !== 'tp' && line.kind !== 'sl')) {
      this.layer.showAt(id, null);
      return;
    }
    const problem = checkExitDrop({
      kind: line.kind,
      side: line.side,
      openPrice: position.price,
      price,
      tick: this.tick,
      quote: this.deps.quote(this.symbol),
    });
    if (problem) {
      this.layer.showAt(id, null);
      this.deps.error(problem);
      return;
    }
    this.state.setState({ confirm: { id, kind: line.kind, price } });
    this.layer.showAt(id, price);
  }

  /**
   * A pending order's line dropped at `price`: the price and its TP and SL moved along must
   * pass the ticket's rules against the live quote, or the line goes back with the message.
   */
  private dropPending(line: TradeLine, price: number): void {
    const pending = line.pId ? this.pendings.get(line.pId) : undefined;
    if (!pending || price === pending.pendPrice) {
      this.layer.showAt(line.id, null);
      return;
    }
    const change = pendingChangeOf(pending, price, this.tick);
    const problem = checkPendingDrop(line.side, change, this.deps.quote(this.symbol), this.tick);
    if (problem) {
      this.layer.showAt(line.id, null);
      this.deps.error(problem);
      return;
    }
    this.state.setState({ confirm: { id: line.id, kind: 'pending', price } });
    this.layer.showAt(line.id, price);
  }

  /**
   * Confirm: saves the level with the Edit Order panel's action (a pending order's price with
   * its change call); on failure the line goes back to its old price.
   */
  async confirm(): Promise<void> {
    const { confirm, saving } = this.state.getState();
    if (!confirm || saving) return;
    if (confirm.kind === 'pending') return this.confirmPending(confirm.id, confirm.price);
    const line = this.lines.find((l) => l.id === confirm.id);
    const position = line?.orderId ? this.positions.get(line.orderId) : undefined;
    if (!position) return this.dismiss();
    this.state.setState({ saving: true });
    let saved = false;
    try {
      const outcome = await this.deps.save(
        this.deps.orderOf(position),
        exitEditOf(position, confirm.kind, confirm.price),
      );
      saved = outcome.success;
      // the action showed its success; a refusal is shown here (the panel shows it inline)
      if (!outcome.success && outcome.message) this.deps.error(outcome.message);
    } finally {
      this.state.setState({ saving: false, confirm: null });
      // saved, the cached position carries the new level and the line stays; else it goes back
      if (!saved) this.layer.showAt(confirm.id, null);
    }
  }

  private async confirmPending(id: string, price: number): Promise<void> {
    const line = this.lines.find((l) => l.id === id);
    const pending = line?.pId ? this.pendings.get(line.pId) : undefined;
    if (!pending) return this.dismiss();
    this.state.setState({ saving: true });
    let saved = false;
    try {
      const outcome = await this.deps.savePending(
        pending,
        pendingChangeOf(pending, price, this.tick),
      );
      saved = outcome.success;
      if (!outcome.success && outcome.message) this.deps.error(outcome.message);
    } finally {
      this.state.setState({ saving: false, confirm: null });
      if (!saved) this.layer.showAt(id, null);
    }
  }

  /** Cancel: the line goes back to its level. */
  dismiss(): void {
    const { confirm } = this.state.getState();
    if (!confirm) return;
    this.state.setState({ confirm: null });
    this.layer.showAt(confirm.id, null);
  }

  /**
   * The keyboard's drag of a focused TP, SL or pending label: Arrow Up / Down move it a tick (with
   * Shift ten), Enter drops it where it is (the same check and confirmation as a drop),
   * Escape puts it back. Answers whether the key was used.
   */
  key(id: string, key: string, shift = false): boolean {
    const line = this.lines.find((l) => l.id === id);
    const { dragging, confirm } = this.state.getState();
    if (!line?.draggable || confirm) return false;
    const moving = dragging?.id === id ? dragging : null;
    if (key === 'ArrowUp' || key === 'ArrowDown') {
      const step = (key === 'ArrowUp' ? 1 : -1) * (shift ? 10 : 1) * this.tick;
      const price = snapDragPrice((moving?.price ?? line.price) + step, this.tick);
      if (!(price > 0)) return true;
      this.state.setState({ dragging: { id, price } });
      this.layer.showAt(id, price);
      return true;
    }
    if (key === 'Enter' && moving) {
      this.drop(id, moving.price);
      return true;
    }
    if (key === 'Escape' && moving) {
      this.state.setState({ dragging: null });
      this.layer.showAt(id, null);
      return true;
    }
    return false;
  }
}
