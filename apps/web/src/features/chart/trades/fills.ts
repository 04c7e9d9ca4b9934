import { formatPrice, type OrderLogView, type Period, type Side } from '@ct/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { messages as firstScreen } from '../../../i18n/firstScreen';
import { liveRuns } from '../../../i18n/defaults/liveRuns';
import type { ChartMarker } from '../../../shared/chartMarkers';
import type { ChartColors } from '../../../shared/chartTheme';
import { queryClient } from '../../../shared/queryClient';
import { useAuthStore } from '../../auth';
import { fetchOrderLogs, useTradeList } from '../../trading';
import { isLiveRunOrder, LIVE_COLOR } from '../../live-runs';
import { fillMarkersOf, mergeMarkers, type FillLabels } from './model';

/** This module's texts (their sections, shared with messages.ts). */
const messages = { ...firstScreen, ...liveRuns };

/*
 * The account's recent fills for the chart's markers: the newest rows of the order log (its
 * filled orders carry the fill time and price), under a key of their own — the Order Logs
 * table pages the same call by what it shows, and a chart must not change its pages. Every
 * fill opens, reduces or closes a position, so the fills are asked again whenever the
 * positions list changes (actions and the account's live events refresh that list).
 */

/** How many of the newest order log rows the markers come from. */
export const RECENT_FILL_ROWS = 200;

/** The query key of an account's recent order log rows (the chart's fill markers). */
export const recentFillsKey = (uuid: string) => ['trading', uuid, 'recentFills'] as const;

const NONE: readonly ChartMarker[] = [];

const sideWord = (side: Side) =>
  side === 'buy' ? messages.chartTrades.buy : messages.chartTrades.sell;

const fillText = (side: Side, volume: number) =>
  messages.chartTrades.fillMarker(sideWord(side), String(volume));

const liveFillText = (side: Side, volume: number) =>
  messages.liveRuns.marker(sideWord(side), String(volume));

/** Crowded labels and details of the trader's own fills and of a live run's. */
const fillLabels = (tick: number, live: boolean): FillLabels => ({
  short: (side) => (live ? messages.liveRuns.markerShort : messages.chartTrades.fillShort)(side),
  detail: (side, volume, price) =>
    (live ? messages.liveRuns.markerDetail : messages.chartTrades.fillDetail)(
      sideWord(side),
      String(volume),
      formatPrice(price, tick),
    ),
});

/**
 * The current account's fills of `symbol` as chart markers at `period`'s bars (none without
 * an account or an instrument). A failed request shows no markers; the next change asks again.
 */
export function useFillMarkers(
  symbol: string | null,
  period: Period,
  colors: Pick<ChartColors, 'up' | 'down'>,
  /** The instrument's tick: the details show fill prices with its decimals. */
  tick = 0.01,
): readonly ChartMarker[] {
  const uuid = useAuthStore((s) => s.currentTrader?.uuid ?? null);
  const enabled = uuid !== null && symbol !== null;
  const { rows: positions, loading } = useTradeList('positions', enabled);
  const query = useQuery(
    {
      queryKey: recentFillsKey(uuid ?? ''),
      queryFn: async (): Promise<OrderLogView[]> => {
        const { currentTrader } = useAuthStore.getState();
        if (!currentTrader || currentTrader.uuid !== uuid) return [];
        const result = await fetchOrderLogs(currentTrader, {
          lastSortId: -1,
          limit: RECENT_FILL_ROWS,
        });
        if (!result.success) throw new Error(result.message);
        return result.data.rows;
      },
      enabled,
    },
    queryClient,
  );

  // The open volumes changed after they were first seen: a fill came with the change.
  const volumes = positions.map((p) => `${p.orderId}:${p.volume}:${p.settledVol}`).join(',');
  const seen = useRef<{ uuid: string | null; volumes: string } | null>(null);
  useEffect(() => {
    // a list on its way is not a change (the first load least of all)
    if (loading) return;
    const before = seen.current;
    seen.current = { uuid, volumes };
    if (!uuid || !before || before.uuid !== uuid || before.volumes === volumes) return;
    void queryClient.invalidateQueries({ queryKey: recentFillsKey(uuid), exact: true });
  }, [uuid, volumes, loading]);

  const logs = query.data;
  const { up, down } = colors;
  return useMemo(() => {
    if (!symbol || !logs || logs.length === 0) return NONE;
    // a live run's fills in its own colour, beside the trader's own and the backtest's
    const live = logs.filter(isLiveRunOrder);
    const own = live.length > 0 ? logs.filter((l) => !isLiveRunOrder(l)) : logs;
    return mergeMarkers(
      fillMarkersOf(
        own,
        symbol,
        period,
        { buy: up, sell: down },
        fillText,
        fillLabels(tick, false),
      ),
      fillMarkersOf(
        live,
        symbol,
        period,
        { buy: LIVE_COLOR, sell: LIVE_COLOR },
        liveFillText,
        fillLabels(tick, true),
      ),
    );
  }, [logs, symbol, period, up, down, tick]);
}

/**
 * useFillMarkers as a component that reports the markers: TradingChart loads it (with the
 * trading store and API) after the first drawn chart (shared/firstChart.ts).
 */
export function FillMarkers({
  symbol,
  period,
  colors,
  tick,
  onMarkers,
}: {
  symbol: string | null;
  period: Period;
  colors: Pick<ChartColors, 'up' | 'down'>;
  tick: number;
  onMarkers: (markers: readonly ChartMarker[]) => void;
}): null {
  const markers = useFillMarkers(symbol, period, colors, tick);
  useEffect(() => onMarkers(markers), [markers, onMarkers]);
  return null;
}
