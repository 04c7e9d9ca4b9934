import {
  formatMoney,
  formatPercent,
  formatPrice,
  winRateUnit,
  type Deal,
  type Performance,
} from '@ct/domain';
import { Alert, Button, Empty, Modal, Segmented, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { strategy as messages } from '../../i18n/defaults/strategy';
import { useSymbolInfo } from '../../market/instruments';
import { EquityChart, type EquityOverlay } from './EquityChart';
import { dealCode, TRADE_PAGE_SIZE } from './logic';

const m = messages.strategy;

/** What the results modal shows: a fresh run or a saved result. */
export type ResultView = {
  deals: readonly Deal[];
  performance: Performance | null;
  error: string | null;
  /** The run's instrument: its tick sets the decimals of the trades' prices. */
  symbol?: string | null;
  /** A run on several instruments: each one's figures (`performance` is the portfolio's). */
  perSymbol?: Record<string, Performance>;
};

const PORTFOLIO = '';

const shown = (value: number | null | undefined, format: (value: number) => string) =>
  value === null || value === undefined || !Number.isFinite(value) ? '-' : format(value);
/** A ratio (Sharpe, profit factor) with 4 decimals. */
const ratio = (value: number | null | undefined) => shown(value, (v) => v.toFixed(4));
const money = (value: number | null | undefined) => shown(value, (v) => formatMoney(v));
const pct = (value: number | null | undefined) => shown(value, (v) => formatPercent(v, 'fraction'));
/** A run's win rate (`胜率`), in the unit it is given in (see winRateUnit). */
export const winRate = (value: number | null | undefined) =>
  shown(value, (v) => formatPercent(v, winRateUnit(v)));

/** An annualised figure, or why it is withheld (data spanning too short a time). */
function annualised(p: Performance, value: number | null, text: string): string {
  const minDays = (p.conventions as Performance['conventions'] | undefined)?.min_annualise_days;
  if (value === null && minDays !== undefined) return `- (needs ${minDays} days of data or more)`;
  return text;
}

/** The rows of the Performance Metrics table. */
export function metricRows(p: Performance): { key: string; label: string; value: string }[] {
  const rows: [string, string | number | null | undefined][] = [
    ['合约 (Symbol)', p.合约],
    ['周期 (Period)', p.周期],
    ['开始时间 (Start)', p.开始时间],
    ['结束时间 (End)', p.结束时间],
    ['交易次数 (Trades)', p.交易次数],
    ['胜率 (Win rate)', winRate(p.胜率)],
    ['盈亏比 (Profit/loss ratio)', ratio(p.盈亏比)],
    ['总盈利 (Total profit)', money(p.总盈利)],
    ['总亏损 (Total loss)', money(p.总亏损)],
    ['净利润 (Net profit)', money(p.净利润)],
    ['最大持仓 (Max positions)', p.最大持仓],
    ['平均每笔盈利 (Average per trade)', money(p.平均每笔盈利)],
    ['Profit rate', pct(p.profit_rate)],
    ['Annual return', annualised(p, p.annual_return, pct(p.annual_return))],
    ['Max drawdown', `${pct(p.max_drawdown)} (${money(p.max_drawdown_amount)})`],
    ['Sharpe ratio', annualised(p, p.sharpe_ratio, ratio(p.sharpe_ratio))],
    ['Profit factor', ratio(p.profit_factor)],
    ['Expectancy', money(p.expectancy)],
    [
      'Winning / losing / open trades',
      `${p.winning_trades} / ${p.losing_trades} / ${p.open_trades}`,
    ],
    ['Commission', money(p.commission_total)],
    ['Initial capital → final equity', `${money(p.initial_capital)} → ${money(p.final_equity)}`],
    ['Bars', p.bar_count],
  ];
  return rows.map(([label, value]) => ({
    key: label,
    label,
    value: value === null || value === undefined ? '-' : String(value),
  }));
}

function conventionsText(p: Performance): string | null {
  const c = p.conventions as Performance['conventions'] | undefined;
  if (!c) return null;
  return [
    `initial capital ${c.initial_capital}`,
    `contract multiplier ${c.contract_multiplier}`,
    `commission per lot ${c.commission_per_lot}`,
    `risk-free rate ${c.risk_free_rate}`,
    `${c.days_per_year} days per year`,
    ...(c.min_annualise_days !== undefined
      ? [`annual return and Sharpe ratio over ${c.min_annualise_days} days of data or more`]
      : []),
    `currency ${c.currency}`,
    `open trades valued at the last close`,
  ].join(', ');
}

export function ResultsModal({
  open,
  view,
  onClose,
  onSave,
  saveDisabled,
  saving,
  onShowOnChart,
  title = m.resultsTitle,
}: {
  open: boolean;
  view: ResultView | null;
  onClose: () => void;
  onSave?: () => void;
  saveDisabled: boolean;
  saving?: boolean;
  onShowOnChart?: () => void;
  /** The modal's title: Backtest Results unless another run's (a replay's) results. */
  title?: string;
}) {
  // a run on several instruments: the portfolio's results or one instrument's
  const codes = Object.keys(view?.perSymbol ?? {});
  const [chosen, setScope] = useState(PORTFOLIO);
  const scope = codes.length > 1 && codes.includes(chosen) ? chosen : PORTFOLIO;
  const performance =
    scope === PORTFOLIO ? (view?.performance ?? null) : (view?.perSymbol?.[scope] ?? null);
  const allDeals = view?.deals ?? [];
  const deals =
    scope === PORTFOLIO
      ? allDeals
      : allDeals.filter((deal) => (dealCode(deal) ?? codes[0]) === scope);
  const conventions = performance ? conventionsText(performance) : null;
  // the portfolio's curve with each instrument's contribution over it
  const perSymbol = view?.perSymbol;
  const overlays = useMemo<EquityOverlay[]>(
    () =>
      Object.entries(perSymbol ?? {}).map(([code, figures]) => ({
        label: code,
        curve: figures.equity_curve ?? [],
      })),
    [perSymbol],
  );
  const contributions = scope === PORTFOLIO && overlays.length > 1 ? overlays : [];
  // every price of the run with its instrument's decimals (4 while the tick is unknown)
  const tick = useSymbolInfo(
    scope !== PORTFOLIO ? scope : (view?.symbol ?? performance?.合约 ?? ''),
  )?.min_price_tick;
  const price = (value: number | null | undefined) => (
    <span className="num">
      {value === null || value === undefined ? '-' : formatPrice(value, tick)}
    </span>
  );
  return (
    <Modal
      open={open}
      title={title}
      width="80vw"
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="close" onClick={onClose}>
          {m.close}
        </Button>,
        onShowOnChart && (
          <Button key="chart" onClick={onShowOnChart}>
            {m.showOnChart}
          </Button>
        ),
        onSave && (
          <Button
            key="save"
            type="primary"
            disabled={saveDisabled}
            loading={saving}
            onClick={onSave}
          >
            {m.saveResults}
          </Button>
        ),
      ]}
    >
      <div data-testid="backtest-results">
        {codes.length > 1 && (
          <Segmented
            aria-label={m.resultsScope}
            style={{ marginBottom: 12, maxWidth: '100%', overflowX: 'auto' }}
            value={scope}
            onChange={(value) => setScope(String(value))}
            options={[
              { value: PORTFOLIO, label: m.portfolio },
              ...codes.map((code) => ({ value: code, label: code })),
            ]}
          />
        )}
        {view?.error && (
          <Alert
            type="error"
            showIcon
            style={{ marginBottom: 12 }}
            title={m.errorTitle}
            description={
              <>
                <pre
                  style={{ whiteSpace: 'pre-wrap', margin: 0, maxHeight: 200, overflow: 'auto' }}
                >
                  {view.error}
                </pre>
                <div>{m.errorTip}</div>
              </>
            }
          />
        )}
        {!performance && deals.length === 0 ? (
          <Empty description={m.noData} />
        ) : (
          <>
            {performance && (performance.equity_curve?.length ?? 0) > 0 && (
              <>
                <Typography.Title level={5}>{m.equityCurve}</Typography.Title>
                <EquityChart
                  curve={performance.equity_curve}
                  initialCapital={performance.initial_capital}
                  label={m.equityCurve}
                  overlays={contributions}
                  overlaysLabel={m.contributions}
                  curveName={contributions.length > 0 ? m.portfolio : m.equityCurve}
                />
                {contributions.length > 0 && (
                  <Typography.Paragraph type="secondary" style={{ marginTop: -4 }}>
                    {m.contributionsNote}
                  </Typography.Paragraph>
                )}
              </>
            )}
            {performance && (
              <>
                <Typography.Title level={5}>{m.metrics}</Typography.Title>
                <Table
                  size="small"
                  pagination={false}
                  rowKey="key"
                  dataSource={metricRows(performance)}
                  columns={[
                    { title: m.metric, dataIndex: 'label', width: '40%' },
                    { title: m.value, dataIndex: 'value' },
                  ]}
                  aria-label={m.metrics}
                />
                {conventions && (
                  <Typography.Paragraph type="secondary" style={{ marginTop: 4 }}>
                    {m.conventions(conventions)}
                  </Typography.Paragraph>
                )}
              </>
            )}
            <Typography.Title level={5}>{m.trades}</Typography.Title>
            <Table<Deal>
              size="small"
              rowKey={(d) => `${dealCode(d) ?? ''}-${d.start}-${d.open_date}-${d.lots}`}
              dataSource={deals as Deal[]}
              pagination={{ pageSize: TRADE_PAGE_SIZE, showSizeChanger: false }}
              aria-label={m.trades}
              columns={[
                ...(codes.length > 1
                  ? [
                      {
                        title: m.symbol,
                        key: 'code',
                        render: (_: unknown, d: Deal) => dealCode(d) ?? codes[0],
                      },
                    ]
                  : []),
                { title: m.deal.openDate, dataIndex: 'open_date' },
                { title: m.deal.closeDate, dataIndex: 'close_date', render: (v) => v ?? '-' },
                {
                  title: m.deal.side,
                  render: (_, d) =>
                    d.lots > 0 ? (
                      <Tag color="green">{m.deal.buy}</Tag>
                    ) : (
                      <Tag color="red">{m.deal.sell}</Tag>
                    ),
                },
                { title: m.deal.lots, dataIndex: 'lots' },
                { title: m.deal.openPrice, dataIndex: 'open_price', render: price },
                { title: m.deal.closePrice, dataIndex: 'close_price', render: price },
                {
                  title: m.deal.profit,
                  dataIndex: 'profit',
                  render: (v: number) => (
                    <span style={{ color: v >= 0 ? '#389e0d' : '#cf1322' }}>{money(v)}</span>
                  ),
                },
                {
                  title: m.deal.status,
                  dataIndex: 'status',
                  render: (v: string) => (v === 'YES' ? m.deal.closed : m.deal.open),
                },
              ]}
            />
          </>
        )}
      </div>
    </Modal>
  );
}
