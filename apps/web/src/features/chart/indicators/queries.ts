import {
  defaultIndicatorParams,
  MAX_INDICATORS_PER_CHART,
  type IndicatorConfig,
  type IndicatorKind,
} from '@ct/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { messages } from '../../../i18n/firstScreen';
import { notify } from '../../../shared/notify';
import { queryClient } from '../../../shared/queryClient';
import { fetchChartIndicators, saveChartIndicators } from './api';

/*
 * A chart's indicators are server state: one query per chart key in the TanStack Query
 * cache. An edit goes into the cache at once (the chart redraws), then to the server; saves
 * of one chart run one after another, and only the newest edit's answer is kept.
 */

export const indicatorKeys = {
  of: (chartKey: string) => ['charts', 'indicators', chartKey] as const,
};

/** A parameter typed in the dialog waits this long for the next key before it is saved. */
export const PARAM_SAVE_DELAY_MS = 400;

/** Colours new indicators take in turn (readable on the light and the dark background). */
export const INDICATOR_COLORS = [
  '#2962ff',
  '#ff9800',
  '#9c27b0',
  '#00897b',
  '#e91e63',
  '#795548',
  '#607d8b',
] as const;

export const indicatorsQuery = (chartKey: string) =>
  queryOptions({
    queryKey: indicatorKeys.of(chartKey),
    queryFn: () => fetchChartIndicators(chartKey),
  });

/** The chart's indicators; `data` stays undefined until the first answer. */
export function useChartIndicators(chartKey: string, enabled = true) {
  return useQuery({ ...indicatorsQuery(chartKey), enabled });
}

type SaveQueue = {
  /** What the server last confirmed (the cache goes back to it when a save fails). */
  confirmed: IndicatorConfig[] | undefined;
  chain: Promise<void>;
  latest: number;
  timer: ReturnType<typeof setTimeout> | null;
  /** Callers of delayed saves waiting for the save that carries their edit. */
  waiting: (() => void)[];
};

const queues = new Map<string, SaveQueue>();

function queueOf(chartKey: string): SaveQueue {
  let queue = queues.get(chartKey);
  if (!queue) {
    queue = {
      confirmed: queryClient.getQueryData(indicatorKeys.of(chartKey)),
      chain: Promise.resolve(),
      latest: 0,
      timer: null,
      waiting: [],
    };
    queues.set(chartKey, queue);
  }
  return queue;
}

function current(chartKey: string): IndicatorConfig[] {
  return queryClient.getQueryData(indicatorKeys.of(chartKey)) ?? [];
}

function send(chartKey: string): Promise<void> {
  const queue = queueOf(chartKey);
  if (queue.timer) clearTimeout(queue.timer);
  queue.timer = null;
  const waiting = queue.waiting.splice(0);
  const seq = ++queue.latest;
  queue.chain = queue.chain.then(async () => {
    if (seq !== queue.latest) return; // a newer edit's save sends the newer list
    try {
      const saved = await saveChartIndicators(chartKey, current(chartKey));
      queue.confirmed = saved;
      if (seq === queue.latest) queryClient.setQueryData(indicatorKeys.of(chartKey), saved);
    } catch (error) {
      if (seq !== queue.latest) return;
      queryClient.setQueryData(indicatorKeys.of(chartKey), queue.confirmed ?? []);
      const detail = error instanceof Error ? error.message : String(error);
      notify.error(`${messages.indicators.saveFailed}: ${detail}`);
    }
  });
  return queue.chain.then(() => waiting.forEach((resolve) => resolve()));
}

/**
 * Sets a chart's indicators: the chart shows them at once, the server gets them now or,
 * with `delayMs`, once no further edit came for that long. Resolves when saved (or refused).
 */
export function setChartIndicators(
  chartKey: string,
  indicators: IndicatorConfig[],
  options: { delayMs?: number } = {},
): Promise<void> {
  const queue = queueOf(chartKey);
  queryClient.setQueryData(indicatorKeys.of(chartKey), indicators);
  if (!options.delayMs) return send(chartKey);
  if (queue.timer) clearTimeout(queue.timer);
  return new Promise((resolve) => {
    queue.waiting.push(resolve);
    queue.timer = setTimeout(() => void send(chartKey), options.delayMs);
  });
}

/** Sends a delayed save of the chart now (the dialog closes). */
export function flushChartIndicators(chartKey: string): Promise<void> {
  const queue = queues.get(chartKey);
  return queue?.timer ? send(chartKey) : (queue?.chain ?? Promise.resolve());
}

/** A new indicator of `kind` with the default parameters and the next free colour. */
export function newIndicator(
  kind: IndicatorKind,
  existing: readonly IndicatorConfig[],
  makeId: () => string,
): IndicatorConfig {
  const used = new Set(existing.map((i) => i.color));
  const color =
    INDICATOR_COLORS.find((c) => !used.has(c)) ??
    INDICATOR_COLORS[existing.length % INDICATOR_COLORS.length]!;
  let id = makeId();
  while (existing.some((i) => i.id === id)) id = makeId();
  return { id, kind, params: defaultIndicatorParams(kind), visible: true, color };
}

/** True while another indicator can be added to the chart. */
export function canAdd(existing: readonly IndicatorConfig[]): boolean {
  return existing.length < MAX_INDICATORS_PER_CHART;
}

/** Test helper: forgets the save queues. */
export function resetIndicatorSaves(): void {
  for (const queue of queues.values()) if (queue.timer) clearTimeout(queue.timer);
  queues.clear();
}
