import { formatLots, formatMoney } from '@ct/domain';
import { CloseOutlined } from '@ant-design/icons';
import type { ContractTerms, PendingView, PositionView } from '@ct/domain';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { messages } from '../../../i18n/firstScreen';
import { useSymbolInfo } from '../../../market/instruments';
import { useQuote } from '../../../realtime/quotes';
import type { ChartColors } from '../../../shared/chartTheme';
import {
  useAccountLiveUpdates,
  openCancelPending,
  openClosePosition,
  useTradingDialogs,
  useTradeList,
  useTradingTarget,
  chartTradingTarget,
} from '../../trading';
import type { ChartController } from '../ChartController';
import { lineProfit, linePriceText, tradeLinesOf, type TradeLine } from './model';
import { defaultTradesDeps, TradesView } from './view';
import './trades.css';
import { loadTradingDialogs } from '../../trading/lazy';

const m = messages.chartTrades;
const NONE: never[] = [];

// The close and cancel dialogs (with their Modal and number input) load when one is opened.
const TradingDialogs = lazy(() =>
  loadTradingDialogs().then((mod) => ({ default: mod.TradingDialogs })),
);

/** This chart's own trading dialogs (outside the workspace), loaded when one is asked for. */
function OwnTradingDialogs() {
  const open = useTradingDialogs((s) => s.closePosition !== null || s.cancelPending !== null);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <TradingDialogs />
    </Suspense>
  );
}

/**
 * The workspace mounts the trading dialogs (close, cancel) once for all its charts; a chart
 * on another page (/chart, a child frame) brings its own.
 */
function pageHasTradingDialogs(): boolean {
  return /^\/(desktop|phone)(\/|$)/.test(window.location.pathname);
}

function sideText(line: TradeLine): string {
  return line.side === 'buy' ? m.buy : m.sell;
}

/** What a line's label says: side and volume, type and time in force, or TP / SL. */
export function lineText(line: TradeLine): string {
  if (line.kind === 'position') return m.position(sideText(line), formatLots(line.volume));
  if (line.kind === 'pending') {
    return m.pending(
      sideText(line),
      line.trigger === 'stop' ? m.stop : m.limit,
      formatLots(line.volume),
      line.expireType ?? '',
    );
  }
  return line.kind === 'tp' ? m.tp : m.sl;
}

function Pnl({ value }: { value: number | null }) {
  if (value === null) return null;
  return (
    <span className={value >= 0 ? 'num pnl-up' : 'num pnl-down'}>
      {formatMoney(value, { signed: true })}
    </span>
  );
}

/** A position's floating P&L at the live quote (re-renders with its own quote only). */
function LivePnl(props: {
  line: TradeLine;
  openPrice: number;
  terms: ContractTerms | null;
  symbol: string;
}) {
  const quote = useQuote(props.symbol);
  const live =
    quote && quote.bid !== null && quote.ask !== null ? { bid: quote.bid, ask: quote.ask } : null;
  return <Pnl value={lineProfit(props.line, props.openPrice, live, props.terms)} />;
}

/**
 * The trader's own trades on one chart: a line per open position (side, volume, live P&L),
 * per TP and SL, per pending order (side, type, volume, GFD/GTC) of the chart's instrument.
 * TP and SL lines are dragged to change them (checked with the Edit Order panel's rule,
 * confirmed on their label, then saved with the panel's action), a pending order's line to
 * change its price (the ticket's limit rule, its TP/SL moved along, saved with the pending
 * change call); the keys move a focused line the same way; a position's label closes
 * it and a pending order's cancels it through the trading dialogs. The lines come from the
 * trading lists of the query cache, so they follow every action and live event. While the
 * chart replays (`replayOf`), the replay's account (the chart's trading target) is drawn
 * instead, nothing before its session has started; drops are checked at its quote, and every move, close and cancel goes to it (the trading actions route a target's
 * rows to their target).
 */
export function ChartTrades({
  controller,
  symbol,
  tick,
  colors,
  replayOf = null,
}: {
  controller: ChartController;
  symbol: string;
  tick: number;
  colors: ChartColors;
  /** The chart id while the chart replays: its replay account's trades are shown. */
  replayOf?: string | null;
}) {
  useAccountLiveUpdates();
  const target = useTradingTarget(replayOf);
  const replaying = replayOf !== null;
  const ownPositions = useTradeList('positions', !replaying).rows;
  const ownPendings = useTradeList('pendings', !replaying).rows;
  const positions = replaying ? (target?.positions ?? NONE) : ownPositions;
  const pendings = replaying ? (target?.pendings ?? NONE) : ownPendings;
  const terms = useSymbolInfo(symbol) ?? null;
  const lines = useMemo(
    () => tradeLinesOf(positions, pendings, symbol),
    [positions, pendings, symbol],
  );
  const positionById = useMemo(
    () => new Map<string, PositionView>(positions.map((p) => [p.orderId, p])),
    [positions],
  );
  const pendingById = useMemo(
    () => new Map<string, PendingView>(pendings.map((p) => [p.pId, p])),
    [pendings],
  );

  // a drop is checked at the replay's quote (its cursor's close), else at the live one
  const [view] = useState(
    () =>
      new TradesView({
        ...defaultTradesDeps,
        quote: (s) =>
          replayOf === null
            ? defaultTradesDeps.quote(s)
            : (chartTradingTarget(replayOf)?.quote ?? null),
      }),
  );
  const { dragging, confirm, saving } = useStore(view.state);
  const [hostsDialogs] = useState(() => !pageHasTradingDialogs());

  useEffect(() => controller.addLayer(view.layer), [controller, view]);
  useEffect(() => {
    view.update({
      lines,
      positions: positionById,
      pendings: pendingById,
      symbol,
      tick,
      colors,
    });
  }, [view, lines, positionById, pendingById, symbol, tick, colors]);
  // Labels render after the layer placed the lines; a label that changed width moves over.
  useEffect(() => view.arrange());

  return (
    <div className="chart-trades" role="group" aria-label={m.region}>
      {lines.map((line) => {
        const position = line.orderId ? positionById.get(line.orderId) : undefined;
        const pending = line.pId ? pendingById.get(line.pId) : undefined;
        const asking = confirm?.id === line.id;
        const shownPrice =
          dragging?.id === line.id ? dragging.price : asking ? confirm.price : line.price;
        const priceText = linePriceText(shownPrice, tick);
        const text = lineText(line);
        const exit = line.kind === 'tp' || line.kind === 'sl';
        // TP, SL and pending lines move by drag or keys; a position's open price does not
        const movable = line.draggable;
        const open = position?.price ?? line.price;
        const label =
          line.kind === 'position'
            ? m.positionLabel(line.orderId ?? '', text)
            : line.kind === 'pending'
              ? m.pendingLabel(line.pId ?? '', text, priceText)
              : m.exitLabel(text, line.orderId ?? '', priceText);
        return (
          <div
            key={line.id}
            ref={(el) => view.label(line.id, el)}
            className={[
              'chart-trade-label',
              `chart-trade-${line.kind}`,
              line.side === 'buy' ? 'chart-trade-buy' : 'chart-trade-sell',
              movable && !asking ? 'chart-trade-draggable' : '',
              dragging?.id === line.id ? 'chart-trade-active' : '',
            ]
              .filter(Boolean)
              .join(' ')}
            role="group"
            aria-label={label}
            data-line-id={line.id}
            data-price={shownPrice}
            style={{ visibility: 'hidden' }}
            onPointerDown={
              movable && !asking && !saving
                ? (event) => {
                    // a press on the label's own button (a pending order's ×) is a click
                    if ((event.target as Element).closest('button')) return;
                    view.layer.grab(line.id, event.nativeEvent);
                  }
                : undefined
            }
            tabIndex={movable && !asking ? 0 : undefined}
            aria-keyshortcuts={movable ? 'ArrowUp ArrowDown Enter Escape' : undefined}
            onKeyDown={
              movable && !asking && !saving
                ? (event) => {
                    if (view.key(line.id, event.key, event.shiftKey)) event.preventDefault();
                  }
                : undefined
            }
            onBlur={
              movable && dragging?.id === line.id ? () => view.key(line.id, 'Escape') : undefined
            }
          >
            {/* a pending order's question names it: the label stays narrow on a phone */}
            {!(asking && line.kind === 'pending') && (
              <span className="chart-trade-text">{text}</span>
            )}
            {line.kind === 'position' &&
              (target ? (
                <Pnl value={lineProfit(line, open, target.quote, terms)} />
              ) : (
                <LivePnl line={line} openPrice={open} terms={terms} symbol={symbol} />
              ))}
            {line.kind === 'pending' && dragging?.id === line.id && (
              <span className="chart-trade-price num">{priceText}</span>
            )}
            {exit && !asking && (
              <>
                <span className="chart-trade-price num">{priceText}</span>
                <Pnl value={lineProfit({ ...line, price: shownPrice }, open, null, terms)} />
              </>
            )}
            {asking && (
              <span
                className="chart-trade-confirm"
                onKeyDown={(event) => {
                  if (event.key === 'Escape') view.dismiss();
                }}
              >
                <span>
                  {m.confirmMove(
                    line.kind === 'pending'
                      ? `${sideText(line)} ${line.trigger === 'stop' ? m.stop : m.limit}`
                      : text,
                    priceText,
                  )}
                </span>
                <button
                  type="button"
                  className="chart-trade-button chart-trade-ok"
                  // the question takes the focus: Enter confirms, Escape cancels
                  ref={(el) => el?.focus({ preventScroll: true })}
                  disabled={saving}
                  onClick={() => void view.confirm()}
                >
                  {saving ? m.saving : m.confirm}
                </button>
                <button
                  type="button"
                  className="chart-trade-button"
                  disabled={saving}
                  onClick={() => view.dismiss()}
                >
                  {m.cancel}
                </button>
              </span>
            )}
            {line.kind === 'position' && position && (
              <button
                type="button"
                className="chart-trade-button chart-trade-x"
                aria-label={m.closePosition(position.orderId)}
                title={m.closePosition(position.orderId)}
                onClick={() => openClosePosition(position)}
              >
                <CloseOutlined aria-hidden="true" />
              </button>
            )}
            {line.kind === 'pending' && pending && !asking && (
              <button
                type="button"
                className="chart-trade-button chart-trade-x"
                aria-label={m.cancelOrder(pending.pId)}
                title={m.cancelOrder(pending.pId)}
                onClick={() => openCancelPending(pending)}
              >
                <CloseOutlined aria-hidden="true" />
              </button>
            )}
          </div>
        );
      })}
      {hostsDialogs && <OwnTradingDialogs />}
    </div>
  );
}
