import { PERCENT_DECIMALS, formatMoney, formatPercent, marginLevelOf, roundTo } from '@ct/domain';
import { WarningFilled } from '@ant-design/icons';
import { Alert, Tooltip, Typography } from 'antd';
import { trading as messages } from '../../../i18n/defaults/trading';
import { useAuthStore } from '../../auth';
import type { TradingTarget } from '../target';
import { useLiveFigures, type LiveFigures } from './liveFigures';
import { useAccountSummary } from './summary';
import './account.css';

const m = messages.accountMoney;
/** Margin level: the spec's 4 decimals. */
const MARGIN_LEVEL = { decimals: PERCENT_DECIMALS };

/**
 * Where the bar is shown: `bar` in the desktop bottom panel's header (one line), `card` in
 * the phone's My tab, `strip` at the top of the phone's Positions list.
 */
export type AccountBarVariant = 'bar' | 'card' | 'strip';

type Figure = {
  key: string;
  label: string;
  value: string;
  /** 'up' / 'down' colour a P&L (green at zero or above, red below); 'down' a shortfall. */
  tone?: 'up' | 'down';
};

function figuresOf(f: LiveFigures | null): Figure[] {
  const dash = m.noMarginLevel;
  const amount = (value: number | undefined) => (value === undefined ? dash : formatMoney(value));
  return [
    { key: 'balance', label: m.balance, value: amount(f?.balance) },
    { key: 'equity', label: m.equity, value: amount(f?.equity) },
    { key: 'usedMargin', label: m.usedMargin, value: amount(f?.usedMargin) },
    {
      key: 'freeMargin',
      label: m.freeMargin,
      value: amount(f?.freeMargin),
      tone: f && f.freeMargin < 0 ? 'down' : undefined,
    },
    {
      key: 'marginLevel',
      label: m.marginLevel,
      value: f?.marginLevel == null ? dash : formatPercent(f.marginLevel, 'percent', MARGIN_LEVEL),
      tone: f?.marginWarning ? 'down' : undefined,
    },
    {
      key: 'floatingPnl',
      label: m.floatingPnl,
      value: f ? formatMoney(f.unrealizedPnl, { signed: true }) : dash,
      tone: f ? (f.unrealizedPnl >= 0 ? 'up' : 'down') : undefined,
    },
  ];
}

/** A configured warning level as written: 100 → '100', 87.5 → '87.5'. */
function warningLevel(value: number): string {
  return String(roundTo(value, PERCENT_DECIMALS));
}

function warningText(f: LiveFigures): string {
  return m.warning(
    formatPercent(f.marginLevel ?? 0, 'percent', { ...MARGIN_LEVEL, symbol: false }),
    warningLevel(f.marginWarningLevel),
  );
}

/** A target's money (a replay's account), as the session last computed it. */
function targetFiguresOf(target: TradingTarget): Figure[] {
  const f = target.figures;
  const level = marginLevelOf(f.equity, f.margin);
  return [
    { key: 'balance', label: m.balance, value: formatMoney(f.balance) },
    { key: 'equity', label: m.equity, value: formatMoney(f.equity) },
    { key: 'usedMargin', label: m.usedMargin, value: formatMoney(f.margin) },
    {
      key: 'freeMargin',
      label: m.freeMargin,
      value: formatMoney(f.freeMargin),
      tone: f.freeMargin < 0 ? 'down' : undefined,
    },
    {
      key: 'marginLevel',
      label: m.marginLevel,
      value: level === null ? m.noMarginLevel : formatPercent(level, 'percent', MARGIN_LEVEL),
    },
    {
      key: 'floatingPnl',
      label: m.floatingPnl,
      value: formatMoney(f.floating, { signed: true }),
      tone: f.floating >= 0 ? 'up' : 'down',
    },
  ];
}

/**
 * The account's money: balance, equity, used and free margin, margin level and the total
 * floating P&L, updating live with prices (recomputed in the browser by the server's rule)
 * and with the account's events (a new summary), and a warning while the margin level is
 * below the configured level. Nothing without a current account. With a `target` (a
 * replay's account) its figures instead, under its name.
 */
export function AccountBar({
  variant,
  target = null,
}: {
  variant: AccountBarVariant;
  target?: TradingTarget | null;
}) {
  const hasAccount = useAuthStore((s) => s.currentTrader !== null);
  const { summary, error: summaryError } = useAccountSummary();
  const live = useLiveFigures(summary);
  if (!hasAccount && !target) return null;
  const figures = target ? targetFiguresOf(target) : figuresOf(live);
  const warning = !target && live?.marginWarning ? warningText(live) : null;
  const error = target ? null : summaryError;

  const list = (
    <dl className="account-figures" aria-busy={!target && live === null && !error}>
      {figures.map((figure) => (
        <div key={figure.key} className={`account-figure account-figure-${figure.key}`}>
          <dt>{figure.label}</dt>
          <dd className={figure.tone ? `num pnl-${figure.tone}` : 'num'}>{figure.value}</dd>
        </div>
      ))}
    </dl>
  );

  if (variant === 'bar') {
    return (
      <section
        className={target ? 'account-bar account-bar-target' : 'account-bar'}
        aria-label={target ? target.label : m.region}
      >
        {error ? (
          <Typography.Text type="danger" className="account-error">
            {error}
          </Typography.Text>
        ) : (
          <>
            {target && <span className="account-target">{target.label}</span>}
            <span className="account-currency">
              {target ? target.figures.currency : (live?.currency ?? summary?.currency)}
            </span>
            {list}
            {warning && live && (
              <Tooltip title={warning}>
                <span role="alert" aria-label={warning} className="account-warning-pill">
                  <WarningFilled aria-hidden />
                  <span className="account-warning-text">
                    {m.warningShort(warningLevel(live.marginWarningLevel))}
                  </span>
                </span>
              </Tooltip>
            )}
          </>
        )}
      </section>
    );
  }

  return (
    <section className={`account-${variant}`} aria-label={target ? target.label : m.region}>
      {variant === 'card' && (
        <div className="account-card-head">
          <Typography.Title level={5} className="my-section-title">
            {m.title}
          </Typography.Title>
          {live && (
            <Typography.Text type="secondary">{m.inCurrency(live.currency)}</Typography.Text>
          )}
        </div>
      )}
      {warning && (
        <Alert className="account-warning" type="error" showIcon title={warning} role="alert" />
      )}
      {error ? <Typography.Text type="danger">{error}</Typography.Text> : list}
    </section>
  );
}
