import {
  CaretRightOutlined,
  CloseOutlined,
  PauseOutlined,
  StepBackwardOutlined,
  StepForwardOutlined,
} from '@ant-design/icons';
import {
  barAtOrBefore,
  formatLots,
  formatMoney,
  formatPrice,
  isIntraday,
  MAX_REPLAY_STEP,
  nextBucketStart,
  REPLAY_STEP_PERIOD,
  replayJumpBars,
  stepChunks,
  type Bar,
  type Period,
} from '@ct/domain';
import { useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Select, Switch, Tooltip } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useCallback, useEffect, useRef, useState } from 'react';
import { liveRuns } from '../../i18n/defaults/liveRuns';
import { replay } from '../../i18n/defaults/replay';
import type { ChartMarker } from '../../shared/chartMarkers';
import { notify } from '../../shared/notify';
import { queryClient } from '../../shared/queryClient';
import { leadReplay, stopLeading } from '../../shared/replaySync';
import { strategiesQuery } from '../strategy';
import { beginReplay, replayKey, sendOrder, stepReplayBy } from './actions';
import { fetchFormingBars, fetchReplay } from './api';
import { KeptSessions } from './KeptSessions';
import { replayMarkers } from './markers';
import { ReplayResults } from './ReplayResults';
import { StrategyPanel } from './StrategyPanel';
import { useReplayTradingTarget } from './target';
import './replay.css';

/** This module's texts (their sections, shared with messages.ts). */
const messages = { ...liveRuns, ...replay };

const m = messages.replay;
const periodLabels = messages.liveRuns.periodLabels;

/** Replay speeds: bars per second (1× one bar a second, 100× about one a frame). */
export const REPLAY_SPEEDS = [1, 2, 5, 10, 50, 100] as const;
/** Bars back the date field starts at unless the trader picks another. */
export const DEFAULT_BARS_BACK = 100;

/** The replay's price: bid and ask. */
export type ReplayQuote = { bid: number; ask: number };

export type ReplayBarProps = {
  /** The chart the bar replays: a synchronised replay names it as the leader; while it is the
   * active one, the trading panel trades the replay. */
  chartId: string;
  symbol: string;
  period: Period;
  tick: number;
  /** Start times (UTC ms) of the chart's loaded bars, ascending. */
  barTimes: () => number[];
  /** A bar time (epoch s) as the chart shows it. */
  formatTime: (seconds: number) => string;
  /**
   * Picking the start bar on the chart: `onPick` gets the clicked bar's start (UTC ms),
   * `onHover` the bar under the pointer; the returned function stops picking.
   */
  pickBar: (onPick: (time: number) => void, onHover: (time: number | null) => void) => () => void;
  /**
   * The chart draws bars up to this bar start (UTC ms), then `forming` (the next bar as far
   * as it has formed); null: every bar (live).
   */
  onCursor: (cursor: number | null, forming: Bar | null) => void;
  onMarkers: (markers: readonly ChartMarker[]) => void;
  /** The replay's price for the chart's bid/ask; null: live quotes again. */
  onQuote: (quote: ReplayQuote | null) => void;
  onExit: () => void;
};

/** A picked date as UTC ms: the local time for intraday bars, the UTC day for longer ones. */
function dateToTime(date: Dayjs, period: Period): number {
  return isIntraday(period) ? date.valueOf() : Date.UTC(date.year(), date.month(), date.date());
}

function timeToDate(time: number, period: Period): Dayjs {
  if (isIntraday(period)) return dayjs(time);
  const d = new Date(time);
  return dayjs(new Date(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

/**
 * The replay control bar over a chart. First it asks where to start: a click on a bar (a
 * line follows the pointer, Esc cancels) or a date; and a strategy. Then Play / Pause /
 * Step back / Step forward at a speed, Jump to date (forward or back, through the step call),
 * steps of a lower period inside a bar when that period has bars, Sync charts (the grid's
 * other charts follow the replay's time), the session's account and positions (trading is the
 * trading panel's ticket, which acts on the session: target.ts), the strategy's evaluation at
 * the cursor (StrategyPanel) and Exit to the live chart. The session
 * lives on the server; this bar shows it through the query cache and tells the chart what
 * to draw.
 */
export function ReplayBar({
  chartId,
  symbol,
  period,
  tick,
  barTimes,
  formatTime,
  pickBar,
  onCursor,
  onMarkers,
  onQuote,
  onExit,
}: ReplayBarProps) {
  const [id, setId] = useState<string | null>(null);
  const [date, setDate] = useState<Dayjs | null>(() => {
    const times = barTimes();
    const at = times[Math.max(times.length - 1 - DEFAULT_BARS_BACK, 0)];
    return at === undefined ? null : timeToDate(at, period);
  });
  const [hovered, setHovered] = useState<number | null>(null);
  const [strategy, setStrategy] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(10);
  const [busy, setBusy] = useState(false);
  // bars a jump to a date is replaying (0: none)
  const [jumping, setJumping] = useState(0);
  const [sync, setSync] = useState(false);
  // steps of a lower period inside the bar after the cursor: how many of them are shown
  const lower = REPLAY_STEP_PERIOD[period];
  const [fine, setFine] = useState(false);
  const [formed, setFormed] = useState(0);
  // the saved strategies a replay may run (asked for while the bar is open)
  const strategies = useQuery(strategiesQuery).data ?? [];
  const { data: view } = useQuery({
    queryKey: replayKey(id ?? ''),
    queryFn: () => fetchReplay(id ?? ''),
    enabled: id !== null,
    staleTime: Infinity,
  });
  const cursor = view ? view.cursor * 1000 : null;
  const next = cursor === null ? null : (barTimes().find((t) => t > cursor) ?? null);
  const formingOptions = {
    queryKey: ['replay-forming', symbol, period, lower, next],
    queryFn: () => fetchFormingBars(symbol, period, lower ?? period, next ?? 0),
    staleTime: Infinity,
  };
  const formingOn = fine && lower !== null && next !== null;
  const { data: forming } = useQuery({ ...formingOptions, enabled: formingOn });
  // the forming bar shown: the first `formed` lower bars of the next one (never all of them:
  // the whole bar is the server's next step)
  const steps = fine && forming && forming.bars.length > 1 ? forming : null;
  const shownForming = steps && formed > 0 ? (steps.bars[formed - 1] ?? null) : null;
  useReplayTradingTarget(chartId, view);

  // the chart follows the session's cursor, forming bar and fills; leaving shows the live chart
  useEffect(() => {
    if (!view) return;
    onCursor(view.cursor * 1000, shownForming);
    onMarkers(replayMarkers(view.fills, tick));
    const spread = view.quote.ask - view.quote.bid;
    onQuote(
      shownForming ? { bid: shownForming.close, ask: shownForming.close + spread } : view.quote,
    );
  }, [view, shownForming, tick, onCursor, onMarkers, onQuote]);
  useEffect(
    () => () => {
      onCursor(null, null);
      onMarkers([]);
      onQuote(null);
    },
    [onCursor, onMarkers, onQuote],
  );

  // a synchronised replay: the grid's other charts show bars closed by the replay's moment
  const moment =
    view === undefined
      ? null
      : shownForming && steps
        ? (steps.ends[formed - 1] ?? null)
        : nextBucketStart(period, view.cursor * 1000);
  useEffect(() => {
    if (sync && moment !== null) leadReplay(chartId, moment);
    else stopLeading(chartId);
  }, [sync, moment, chartId]);
  useEffect(() => () => stopLeading(chartId), [chartId]);

  // before a session: a click on a bar starts there; Esc leaves
  const startAt = useCallback(
    async (at: number) => {
      setStarting(true);
      const started = await beginReplay({ symbol, period, start: at, strategyName: strategy });
      setStarting(false);
      if (started) setId(started.id);
    },
    [symbol, period, strategy],
  );
  const picking = id === null && !starting;
  useEffect(() => {
    if (!picking) return;
    const stop = pickBar((time) => void startAt(time), setHovered);
    return () => {
      stop();
      setHovered(null);
    };
  }, [picking, pickBar, startAt]);
  useEffect(() => {
    if (!picking) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onExit();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [picking, onExit]);

  const atEnd = view ? view.cursor >= view.last_bar : false;

  // one step forward: the next lower-period step of the forming bar, else a whole bar
  const advance = async (): Promise<boolean> => {
    if (id === null) return false;
    // the next bar's steps are asked for first when they are not there yet
    const steps = formingOn ? await queryClient.fetchQuery(formingOptions).catch(() => null) : null;
    if (steps && steps.bars.length > 1 && formed < steps.bars.length - 1) {
      setFormed(formed + 1);
      return true;
    }
    const moved = await stepReplayBy(id, 1);
    setFormed(0);
    return moved !== null && moved.cursor < moved.last_bar;
  };
  // the play loop calls the newest `advance` (it knows the step shown now)
  const advanceRef = useRef(advance);
  useEffect(() => {
    advanceRef.current = advance;
  });

  useEffect(() => {
    if (!playing || id === null) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const run = async () => {
      const more = await advanceRef.current();
      if (stopped) return;
      if (!more) {
        setPlaying(false);
        return;
      }
      timer = setTimeout(() => void run(), 1000 / speed);
    };
    timer = setTimeout(() => void run(), 1000 / speed);
    return () => {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
    };
  }, [playing, id, speed]);

  const startAtDate = async () => {
    if (!date) return;
    const at = barAtOrBefore(barTimes(), dateToTime(date, period));
    if (at === null) {
      notify.error(m.noBarAt);
      return;
    }
    await startAt(at);
  };

  const step = async (bars: 1 | -1) => {
    if (id === null || busy) return;
    if (bars === -1 && formed > 0) {
      setFormed(formed - 1);
      return;
    }
    setBusy(true);
    if (bars === 1) await advance();
    else await stepReplayBy(id, -1);
    setBusy(false);
  };

  // Jump to date: the cursor moves to the bar at or before the date, forward (the strategy
  // runs and pending orders fill through the skipped bars, as stepping) or back
  const jumpTo = async (value: Dayjs | null) => {
    if (id === null || !view || !value || busy) return;
    const bars = replayJumpBars(barTimes(), {
      cursor: view.cursor * 1000,
      at: dateToTime(value, period),
      start: view.start * 1000,
      lastBar: view.last_bar * 1000,
    });
    if (bars === null) {
      notify.error(m.noBarAt);
      return;
    }
    setFormed(0);
    setBusy(true);
    setJumping(Math.abs(bars));
    for (const chunk of stepChunks(bars, MAX_REPLAY_STEP)) {
      if ((await stepReplayBy(id, chunk)) === null) break;
    }
    setJumping(0);
    setBusy(false);
  };

  const exit = (
    <Tooltip title={m.exit}>
      <Button
        size="small"
        type="text"
        className="replay-exit"
        icon={<CloseOutlined />}
        aria-label={m.exit}
        onClick={() => {
          setPlaying(false);
          onExit();
        }}
      />
    </Tooltip>
  );

  if (!view) {
    return (
      <div className="replay-bar" role="region" aria-label={m.region}>
        <strong className="replay-title">{m.title}</strong>
        <span className="replay-pick" role="status" data-testid="replay-pick">
          {hovered === null ? m.pickBar : m.pickAt(formatTime(hovered / 1000))}
          <span className="replay-pick-cancel"> · {m.pickCancel}</span>
        </span>
        <label className="replay-field">
          <span>{m.startDate}</span>
          <DatePicker
            size="small"
            className="replay-date"
            value={date}
            onChange={(value: Dayjs | null) => setDate(value)}
            showTime={isIntraday(period) ? { format: 'HH:mm' } : false}
            format={isIntraday(period) ? 'YYYY-MM-DD HH:mm' : 'YYYY-MM-DD'}
            allowClear={false}
            aria-label={m.startDate}
          />
        </label>
        <label className="replay-field">
          <span>{m.strategy}</span>
          <Select
            size="small"
            className="replay-strategy"
            value={strategy ?? ''}
            onChange={(value) => setStrategy(value === '' ? null : value)}
            aria-label={m.strategy}
            options={[
              { value: '', label: m.noStrategy },
              ...strategies.map((s) => ({ value: s.name, label: s.name })),
            ]}
          />
        </label>
        <Button size="small" type="primary" loading={starting} onClick={() => void startAtDate()}>
          {m.start}
        </Button>
        <KeptSessions symbol={symbol} period={period} formatTime={formatTime} onResume={setId} />
        <span className="replay-spacer" />
        {exit}
      </div>
    );
  }

  const account = view.account;
  return (
    <div className="replay-bar replay-running" role="region" aria-label={m.region}>
      <div className="replay-row">
        <strong className="replay-title">
          {view.strategy_name ? m.titleWith(view.strategy_name) : m.title}
        </strong>
        <Button.Group>
          <Tooltip title={m.stepBack}>
            <Button
              size="small"
              icon={<StepBackwardOutlined />}
              aria-label={m.stepBack}
              disabled={playing || (view.cursor <= view.start && formed === 0)}
              onClick={() => void step(-1)}
            />
          </Tooltip>
          <Tooltip title={playing ? m.pause : m.play}>
            <Button
              size="small"
              icon={playing ? <PauseOutlined /> : <CaretRightOutlined />}
              aria-label={playing ? m.pause : m.play}
              disabled={!playing && atEnd}
              onClick={() => setPlaying((p) => !p)}
            />
          </Tooltip>
          <Tooltip title={m.stepForward}>
            <Button
              size="small"
              icon={<StepForwardOutlined />}
              aria-label={m.stepForward}
              disabled={playing || atEnd}
              onClick={() => void step(1)}
            />
          </Tooltip>
        </Button.Group>
        <Select
          size="small"
          className="replay-speed"
          value={speed}
          onChange={setSpeed}
          aria-label={m.speed}
          options={REPLAY_SPEEDS.map((n) => ({ value: n, label: m.speedOption(n) }))}
        />
        {lower !== null && (
          <Select
            size="small"
            className="replay-steps"
            value={fine}
            onChange={(value: boolean) => {
              setFine(value);
              setFormed(0);
            }}
            aria-label={m.steps}
            options={[
              { value: false, label: m.stepWhole(periodLabels[period]) },
              { value: true, label: m.stepLower(periodLabels[lower]) },
            ]}
          />
        )}
        <span
          className="replay-cursor"
          data-testid="replay-cursor"
          data-cursor={view.cursor}
          data-formed={shownForming ? formed : 0}
        >
          {atEnd ? m.atEnd : m.cursor(formatTime(view.cursor))}
          {shownForming && steps && ` · ${m.forming(formed, steps.bars.length)}`}
          {jumping > 0 && ` · ${m.jumping(jumping)}`}
        </span>
        <DatePicker
          size="small"
          className="replay-date replay-jump"
          value={null}
          placeholder={m.jumpTo}
          onChange={(value: Dayjs | null) => void jumpTo(value)}
          disabled={playing || busy}
          showTime={isIntraday(period) ? { format: 'HH:mm' } : false}
          format={isIntraday(period) ? 'YYYY-MM-DD HH:mm' : 'YYYY-MM-DD'}
          defaultPickerValue={timeToDate(view.cursor * 1000, period)}
          aria-label={m.jumpTo}
        />
        {/* a title, not a tooltip: an overlay here would cover the step buttons above */}
        <label className="replay-field replay-sync" title={m.syncChartsHint}>
          <Switch size="small" checked={sync} onChange={setSync} aria-label={m.syncCharts} />
          <span>{m.syncCharts}</span>
        </label>
        <ReplayResults view={view} />
        <span className="replay-spacer" />
        {exit}
      </div>
      <div className="replay-row">
        <dl className="replay-figures">
          <div>
            <dt>{m.balance}</dt>
            <dd>{formatMoney(account.balance)}</dd>
          </div>
          <div>
            <dt>{m.equity}</dt>
            <dd data-testid="replay-equity">{formatMoney(account.equity)}</dd>
          </div>
          <div>
            <dt>{m.profit}</dt>
            <dd
              data-testid="replay-profit"
              className={account.floating >= 0 ? 'replay-up' : 'replay-down'}
            >
              {formatMoney(account.floating, { signed: true })}
            </dd>
          </div>
        </dl>
        <span className="replay-trades">{m.trades(view.trades.length)}</span>
        <table className="replay-positions" aria-label={m.positions}>
          <tbody>
            {view.positions.length === 0 ? (
              <tr>
                <td className="replay-empty">{m.noPositions}</td>
              </tr>
            ) : (
              view.positions.map((p) => (
                <tr key={p.id}>
                  <td>{m.side(p.side)}</td>
                  <td>{formatLots(p.volume)}</td>
                  <td>{formatPrice(p.open_price, tick)}</td>
                  <td className={p.profit >= 0 ? 'replay-up' : 'replay-down'}>
                    {formatMoney(p.profit, { signed: true })}
                  </td>
                  <td>
                    <Button
                      size="small"
                      type="link"
                      aria-label={m.closePosition(p.id)}
                      onClick={() =>
                        void sendOrder(view.id, { type: 'close', orderId: p.id, volume: p.volume })
                      }
                    >
                      {m.close}
                    </Button>
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {view.strategy_name !== null && (
        <StrategyPanel view={view} tick={tick} formatTime={formatTime} />
      )}
    </div>
  );
}
