import type { ValidTrade } from '../backtest/contract.ts';
import { roundLots } from '../values/units.ts';

/*
 * The runner's one decision at a bar close: what the strategy wants open (its records with
 * status 'NOT') against what the run holds, and so which positions to close and which to
 * open. Pure: the runner reads the positions and sends the orders.
 */

/** A position the strategy wants open, named so that the same record keeps its name. */
export type WantedPosition = {
  /**
   * `<open time ms>:<cmd>:<n>`: the n-th wanted record (0-based) opened at that time on that
   * side. A record keeps its key from bar to bar while the strategy keeps it open.
   */
  key: string;
  /** 1 buy (positive lots), 2 sell (negative lots). */
  cmd: 1 | 2;
  /** The strategy's lots, signed (before the run's multiplier). */
  lots: number;
  /** Open time of the record, UTC ms. */
  openTime: number;
  /** The record's open price (the strategy's price for the entry). */
  openPrice: number;
};

/** A position the run holds: the wanted key it was opened for, and its size. */
export type HeldPosition = { positionId: string; key: string; cmd: 1 | 2; volume: number };

/** Why a wanted position is not opened now. */
export type SkipReason = 'max_positions' | 'before_start';

export type ReconcilePlan = {
  /** Held positions the strategy no longer wants: close them (whole), first. */
  close: HeldPosition[];
  /** Wanted positions not held: open them, in this order, with `volume` lots. */
  open: (WantedPosition & { volume: number })[];
  /** Wanted positions left alone, and why. */
  skipped: { key: string; reason: SkipReason }[];
};

/**
 * The wanted positions of a strategy's validated records: those with status 'NOT', in the
 * order returned, each keyed by open time, side and occurrence (see WantedPosition.key).
 */
export function wantedPositions(trades: readonly ValidTrade[]): WantedPosition[] {
  const seen = new Map<string, number>();
  const wanted: WantedPosition[] = [];
  for (const trade of trades) {
    if (trade.status !== 'NOT') continue;
    const cmd: 1 | 2 = trade.lots < 0 ? 2 : 1;
    const base = `${trade.openTime}:${cmd}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    wanted.push({
      key: `${base}:${n}`,
      cmd,
      lots: trade.lots,
      openTime: trade.openTime,
      openPrice: trade.openPrice,
    });
  }
  return wanted;
}

/**
 * Which held positions to close and which wanted positions to open. A held position whose
 * key is not wanted any more is closed. A wanted one not held is opened with |lots| ×
 * `lotsMultiplier` lots (8 decimals), unless the run would then hold more than
 * `maxPositions` (counted after the closes) or its record opened before `notBefore` (UTC ms:
 * the run does not chase entries made before it started). Wanted records are taken in order.
 */
export function reconcile(input: {
  wanted: readonly WantedPosition[];
  held: readonly HeldPosition[];
  lotsMultiplier: number;
  maxPositions: number;
  notBefore: number;
}): ReconcilePlan {
  const wantedKeys = new Set(input.wanted.map((w) => w.key));
  const heldKeys = new Set(input.held.map((h) => h.key));
  const close = input.held.filter((h) => !wantedKeys.has(h.key));
  let holding = input.held.length - close.length;
  const open: ReconcilePlan['open'] = [];
  const skipped: ReconcilePlan['skipped'] = [];
  for (const w of input.wanted) {
    if (heldKeys.has(w.key)) continue;
    if (w.openTime < input.notBefore) {
      skipped.push({ key: w.key, reason: 'before_start' });
      continue;
    }
    if (holding >= input.maxPositions) {
      skipped.push({ key: w.key, reason: 'max_positions' });
      continue;
    }
    holding += 1;
    open.push({ ...w, volume: roundLots(Math.abs(w.lots) * input.lotsMultiplier) });
  }
  return { close, open, skipped };
}
