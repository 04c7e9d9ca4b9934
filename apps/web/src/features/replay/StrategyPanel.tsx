import { DownOutlined, RightOutlined } from '@ant-design/icons';
import { formatLots, formatPrice, type ReplayView } from '@ct/domain';
import { useState } from 'react';
import { replay } from '../../i18n/defaults/replay';
import { useBreakpoint, usesNarrowLayout } from '../../shared/breakpoints';

const m = replay.replay;

/** The strategy's evaluation at the session's cursor bar, or null when it has none there. */
export function evaluationAtCursor(view: ReplayView): ReplayView['evaluations'][number] | null {
  return view.evaluations.findLast((e) => e.bar_time === view.cursor) ?? null;
}

/**
 * What the session's strategy did at the cursor's close, beside the chart (a section of the
 * replay bar, above the chart, so it covers none of its bars): the positions it wants, the
 * orders it sent (side, volume, price, filled, pending or refused) and every line it printed
 * (scrolled in its own box). A step back shows the evaluation of the bar it lands on. On a
 * phone the section is folded until opened.
 */
export function StrategyPanel({
  view,
  tick,
  formatTime,
}: {
  view: ReplayView;
  tick: number;
  formatTime: (seconds: number) => string;
}) {
  const narrow = usesNarrowLayout(useBreakpoint());
  const [open, setOpen] = useState<boolean | null>(null);
  const shown = open ?? !narrow;
  const evaluation = evaluationAtCursor(view);
  const name = view.strategy_name ?? '';
  return (
    <section className="replay-strategy-panel" aria-label={m.strategyRegion}>
      <button
        type="button"
        className="replay-strategy-toggle"
        aria-expanded={shown}
        aria-label={m.strategyToggle}
        onClick={() => setOpen(!shown)}
      >
        {shown ? <DownOutlined aria-hidden="true" /> : <RightOutlined aria-hidden="true" />}
        <span>{m.strategyAt(name, formatTime(view.cursor))}</span>
        {!shown && evaluation && (
          <span className="replay-strategy-summary">
            {evaluation.error ??
              `${m.wanted} ${evaluation.wanted.length} · ${m.ordersSent} ${evaluation.orders.length}`}
          </span>
        )}
      </button>
      {shown &&
        (evaluation === null ? (
          <p className="replay-strategy-empty">{m.notEvaluated}</p>
        ) : (
          <div className="replay-strategy-body">
            <div className="replay-strategy-part">
              <h4>{m.wanted}</h4>
              <ul aria-label={m.wanted}>
                {evaluation.wanted.length === 0 ? (
                  <li className="replay-empty">{m.wantedNone}</li>
                ) : (
                  evaluation.wanted.map((w, i) => (
                    <li key={i}>
                      <span className={w.side === 'buy' ? 'replay-up' : 'replay-down'}>
                        {m.wantedRow(m.side(w.side), formatLots(w.lots), formatTime(w.open_time))}
                      </span>
                    </li>
                  ))
                )}
              </ul>
            </div>
            <div className="replay-strategy-part">
              <h4>{m.ordersSent}</h4>
              {evaluation.orders.length === 0 ? (
                <p className="replay-empty">{m.ordersNone}</p>
              ) : (
                <table aria-label={m.ordersSent}>
                  <tbody>
                    {evaluation.orders.map((o, i) => (
                      <tr key={i} title={o.error ?? undefined}>
                        <td>{m.orderAction(o.action)}</td>
                        <td className={o.side === 'buy' ? 'replay-up' : 'replay-down'}>
                          {m.side(o.side)}
                        </td>
                        <td>{formatLots(o.volume)}</td>
                        <td>{o.price === null ? '-' : formatPrice(o.price, tick)}</td>
                        <td className={`replay-order-${o.status}`}>{m.orderStatus(o.status)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </div>
            <div className="replay-strategy-part replay-strategy-output">
              <h4>{m.strategyPrinted}</h4>
              {/* every line printed at this bar, scrolled in its own box */}
              <pre
                className="replay-printed"
                aria-label={m.strategyPrinted}
                tabIndex={0}
                data-testid="replay-printed"
              >
                {evaluation.printed.length === 0 && evaluation.error === null
                  ? m.printedNone
                  : [
                      ...evaluation.printed,
                      ...(evaluation.error ? [m.strategyError(evaluation.error)] : []),
                    ].join('\n')}
              </pre>
            </div>
          </div>
        ))}
    </section>
  );
}
