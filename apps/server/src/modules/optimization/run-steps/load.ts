import {
  nextBucketStart,
  walkForwardFolds,
  type Bar,
  type Feed,
  type WalkForwardFold,
  type WalkForwardSettings,
} from '@ct/domain';
import type { OptimizationRow } from '../../../db/schema.ts';
import type { Db } from '../../../db/types.ts';
import { optimizationById } from '../store.ts';
import {
  foldOf,
  type Loaded,
  type RunnerState,
  type Stage,
  type StoredBar,
  type StoredFeed,
} from './deps.ts';

/*
 * The load step: an optimisation's code, bars and other feeds read once per process (the
 * trials of one read them once), and the bars and feeds of each stage cut from them.
 */

export function barsOf(stored: unknown): Bar[] {
  return (stored as StoredBar[]).map(([time, open, high, low, close, volume]) => ({
    time,
    open,
    high,
    low,
    close,
    volume,
  }));
}

/** The optimisation `id` as this process holds it; null when it is gone. */
export async function loadOptimization(
  db: Db,
  state: Pick<RunnerState, 'loaded'>,
  id: string,
): Promise<Loaded | null> {
  const known = state.loaded.get(id);
  if (known) return known;
  const row = await optimizationById(db, id);
  if (!row) return null;
  const stored = ((row.request as { feeds?: StoredFeed[] }).feeds ?? []).map((feed): Feed => ({
    code: feed.symbol_id,
    period: feed.period,
    bars: barsOf(feed.bars),
  }));
  const loaded = { row, bars: barsOf(row.bars), code: row.code, feeds: stored };
  state.loaded.set(id, loaded);
  // a handful of optimisations at once; the oldest goes
  while (state.loaded.size > 8) state.loaded.delete(state.loaded.keys().next().value as string);
  return loaded;
}

function foldsOf(row: OptimizationRow): WalkForwardFold[] {
  const request = row.request as { walk_forward?: WalkForwardSettings | null };
  if (!request.walk_forward) return [];
  const folds = walkForwardFolds((row.bars as unknown[]).length, request.walk_forward);
  return folds.ok ? folds.folds : [];
}

/** The bars a stage runs on: all, or its fold's in-sample or out-of-sample span. */
export function barsOfStage(loaded: Loaded, stage: Stage): Bar[] {
  if (stage === 'main') return loaded.bars;
  const fold = foldsOf(loaded.row)[foldOf(stage)];
  if (!fold) return [];
  const span = stage.startsWith('is:') ? fold.inSample : fold.outOfSample;
  return loaded.bars.slice(span.start, span.end + 1);
}

/**
 * A stage's feeds: its own bars first, then the other feeds' bars over the same span (a
 * walk-forward fold's window); none for an optimisation on one feed.
 */
export function feedsOfStage(loaded: Loaded, bars: readonly Bar[]): Feed[] | undefined {
  const first = bars[0];
  const last = bars.at(-1);
  if (loaded.feeds.length === 0 || !first || !last) return undefined;
  const own = { code: loaded.row.symbol, period: loaded.row.period as Feed['period'], bars };
  const end = nextBucketStart(own.period, last.time);
  return [
    own,
    ...loaded.feeds.map((feed) => ({
      ...feed,
      bars: feed.bars.filter(
        (bar) => bar.time < end && nextBucketStart(feed.period, bar.time) > first.time,
      ),
    })),
  ];
}
