import {
  CaretRightOutlined,
  CloseOutlined,
  PauseOutlined,
  StepBackwardOutlined,
  StepForwardOutlined,
} from '@ant-design/icons';
import { formatLots, formatMoney, formatPrice, type Period } from '@ct/domain';
import { useQuery } from '@tanstack/react-query';
import { Button, InputNumber, Select, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { messages } from '../../i18n/messages';
import type { ChartMarker } from '../../shared/chartMarkers';
import { notify } from '../../shared/notify';
import { strategiesQuery } from '../strategy';
import { beginReplay, replayKey, sendOrder, stepReplayBy } from './actions';
import { fetchReplay } from './api';
import { KeptSessions } from './KeptSessions';
import { replayMarkers } from './markers';
import { ReplayResults } from './ReplayResults';
import { useReplayTradingTarget } from './target';
import './replay.css';

const m = messages.replay;

/** Replay speeds: bars per second (1× one bar a second, 100× about one a frame). */
export const REPLAY_SPEEDS = [1, 2, 5, 10, 50, 100] as const;
/** Bars back a replay starts from unless the trader picks another. */
export const DEFAULT_BARS_BACK = 100;

export type ReplayBarProps = {
  /** The replaying chart: while it is the active one, the trading panel trades the replay. */
  chartId: string;
  symbol: string;
  period: Period;
  tick: number;
  /** Start times (UTC ms) of the chart's loaded bars, ascending. */
  barTimes: () => number[];
  /** A bar time (epoch s) as the chart shows it. */
  formatTime: (seconds: number) => string;
  /** The chart draws bars up to this bar start (UTC ms); null: every bar (live). */
  onCursor: (cursor: number | null) => void;
  onMarkers: (markers: readonly ChartMarker[]) => void;
  onExit: () => void;
};

/**
 * The replay control bar over a chart: pick how far back to start (and a strategy), then
 * Play / Pause / Step back / Step forward at a speed, trade the session's own account (Buy,
 * Sell, Close) and Exit to the live chart. The session lives on the server; this bar shows
 * it through the query cache and tells the chart where the cursor is.
 */
export function ReplayBar({
  chartId,
  symbol,
  period,
  tick,
  barTimes,
  formatTime,
  onCursor,
  onMarkers,
  onExit,
}: ReplayBarProps) {
  const [id, setId] = useState<string | null>(null);
  const [barsBack, setBarsBack] = useState<number>(DEFAULT_BARS_BACK);
  const [strategy, setStrategy] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(10);
  const [quantity, setQuantity] = useState<number>(1);
  const [busy, setBusy] = useState(false);
  // the saved strategies a replay may run (asked for while the bar is open)
  const strategies = useQuery(strategiesQuery).data ?? [];
  const { data: view } = useQuery({
    queryKey: replayKey(id ?? ''),
    queryFn: () => fetchReplay(id ?? ''),
    enabled: id !== null,
    staleTime: Infinity,
  });
  useReplayTradingTarget(chartId, view);

  // the chart follows the session's cursor and fills; leaving shows the live chart again
  useEffect(() => {
    if (!view) return;
    onCursor(view.cursor * 1000);
    onMarkers(replayMarkers(view.fills, tick));
  }, [view, tick, onCursor, onMarkers]);
  useEffect(
    () => () => {
      onCursor(null);
      onMarkers([]);
    },
    [onCursor, onMarkers],
  );

  const atEnd = view ? view.cursor >= view.last_bar : false;

  useEffect(() => {
    if (!playing || id === null) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const next = async () => {
      const moved = await stepReplayBy(id, 1);
      if (stopped) return;
      if (!moved || moved.cursor >= moved.last_bar) {
        setPlaying(false);
        return;
      }
      timer = setTimeout(() => void next(), 1000 / speed);
    };
    timer = setTimeout(() => void next(), 1000 / speed);
    return () => {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
    };
  }, [playing, id, speed]);

  const start = async () => {
    const times = barTimes();
    const at = times[times.length - 1 - barsBack];
    if (at === undefined) {
      notify.error(m.noBars);
      return;
    }
    setStarting(true);
    const started = await beginReplay({ symbol, period, start: at, strategyName: strategy });
    setStarting(false);
    if (started) setId(started.id);
  };

  const step = async (bars: number) => {
    if (id === null || busy) return;
    setBusy(true);
    await stepReplayBy(id, bars);
    setBusy(false);
  };

  const trade = async (cmd: 1 | 2) => {
    if (id === null) return;
    await sendOrder(id, { type: 'market', cmd, volume: quantity });
  };

  const exit = (
    <Tooltip title={m.exit}>
      <Button
        size="small"
        type="text"
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
        <label className="replay-field">
          <span>{m.barsBack}</span>
          <InputNumber
            size="small"
            min={1}
            max={5000}
            value={barsBack}
            onChange={(value) => setBarsBack(value ?? DEFAULT_BARS_BACK)}
            aria-label={m.barsBack}
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
        <Button size="small" type="primary" loading={starting} onClick={() => void start()}>
          {m.start}
        </Button>
        <KeptSessions symbol={symbol} period={period} formatTime={formatTime} onResume={setId} />
        <span className="replay-spacer" />
        {exit}
      </div>
    );
  }

  const account = view.account;
  const evaluation = view.evaluations.at(-1);
  const printed = evaluation?.error ?? evaluation?.printed.at(-1);
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
              disabled={playing || view.cursor <= view.start}
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
        <span className="replay-cursor" data-testid="replay-cursor" data-cursor={view.cursor}>
          {atEnd ? m.atEnd : m.cursor(formatTime(view.cursor))}
        </span>
        <ReplayResults view={view} />
        <span className="replay-spacer" />
        {exit}
      </div>
      <div className="replay-row">
        <InputNumber
          size="small"
          className="replay-quantity"
          min={0.01}
          step={0.01}
          value={quantity}
          onChange={(value) => setQuantity(value ?? 1)}
          aria-label={m.quantity}
        />
        <Button size="small" className="replay-buy" onClick={() => void trade(1)}>
          {m.buy}
        </Button>
        <Button size="small" className="replay-sell" onClick={() => void trade(2)}>
          {m.sell}
        </Button>
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
      </div>
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
      {printed !== undefined && (
        <div className="replay-printed" title={m.strategyPrinted}>
          {printed}
        </div>
      )}
    </div>
  );
}
