import type { Deal, Performance } from '@ct/domain';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useInstrumentStore } from '../../market/instruments';
import { BTC_INFO } from '../trading/testSupport';
import { metricRows, ResultsModal, winRate } from './ResultsModal';

const performance = {
  合约: 'GOOG',
  周期: '1d',
  开始时间: '2024-01-02 00:00:00',
  结束时间: '2024-03-01 00:00:00',
  交易次数: 3,
  胜率: 0.666667,
  盈亏比: 2,
  总盈利: 30,
  总亏损: -15,
  净利润: 15,
  最大持仓: 1,
  平均每笔盈利: 5,
  profit_rate: 0.00015,
  annual_return: null,
  max_drawdown: 0.01,
  max_drawdown_amount: 10,
  win_rate: 0.666667,
  sharpe_ratio: null,
  profit_factor: 2,
  expectancy: 5,
  winning_trades: 2,
  losing_trades: 1,
  open_trades: 0,
  commission_total: 0,
  initial_capital: 100000,
  final_equity: 100015,
  bar_count: 40,
  equity_curve: [],
  conventions: {
    initial_capital: 100000,
    contract_multiplier: 1,
    commission_per_lot: 0,
    risk_free_rate: 0,
    days_per_year: 252,
    min_annualise_days: 30,
    currency: 'USD',
    bars_per_year: 252,
    open_trades_valued_at: 'last_close',
  },
} satisfies Performance;

describe('winRate (spec section 9)', () => {
  it('multiplies fractions by 100 with 2 decimals', () => {
    expect(winRate(0.583333)).toBe('58.33%');
    expect(winRate(1)).toBe('100.00%');
    expect(winRate(0)).toBe('0.00%');
  });
  it('shows values above 1 as they are', () => {
    expect(winRate(58.3333)).toBe('58.33%');
  });
  it('shows a dash for missing values', () => {
    expect(winRate(null)).toBe('-');
    expect(winRate(undefined)).toBe('-');
    expect(winRate(Number.NaN)).toBe('-');
  });
});

describe('ResultsModal', () => {
  it('metric rows show the win rate by the display rule and undefined figures as -', () => {
    const rows = metricRows(performance);
    expect(rows.find((r) => r.label.startsWith('胜率'))?.value).toBe('66.67%');
    expect(rows.find((r) => r.label === 'Annual return')?.value).toBe(
      '- (needs 30 days of data or more)',
    );
    expect(rows.find((r) => r.label.startsWith('交易次数'))?.value).toBe('3');
  });

  it('shows the error alert with the tip and no data, and Save Results disabled', () => {
    render(
      <ResultsModal
        open
        view={{ deals: [], performance: null, error: 'Traceback: boom' }}
        onClose={() => {}}
        onSave={() => {}}
        saveDisabled
      />,
    );
    expect(screen.getByText('Traceback: boom')).toBeInTheDocument();
    expect(screen.getByText(/Execution Log/)).toBeInTheDocument();
    expect(screen.getByText('No backtest data available')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Results' })).toBeDisabled();
  });

  it('shows the metrics with the conventions behind them', () => {
    render(
      <ResultsModal
        open
        view={{ deals: [], performance, error: null }}
        onClose={() => {}}
        saveDisabled={false}
      />,
    );
    expect(screen.getByText(/252 days per year/)).toBeInTheDocument();
    expect(
      screen.getByText(/annual return and Sharpe ratio over 30 days of data or more/),
    ).toBeInTheDocument();
  });

  it('shows the equity curve when the run has one, and no chart without it', () => {
    const { unmount } = render(
      <ResultsModal
        open
        view={{
          deals: [],
          performance: {
            ...performance,
            equity_curve: [
              ['2024-01-01 00:00:00', 100000],
              ['2024-01-02 00:00:00', 100015],
            ],
          },
          error: null,
        }}
        onClose={() => {}}
        saveDisabled={false}
      />,
    );
    expect(screen.getByRole('img', { name: 'Equity Curve' })).toHaveAttribute('data-points', '2');
    unmount();
    render(
      <ResultsModal
        open
        view={{ deals: [], performance, error: null }}
        onClose={() => {}}
        saveDisabled={false}
      />,
    );
    expect(screen.queryByRole('img', { name: 'Equity Curve' })).toBeNull();
  });

  it("draws each instrument's contribution over the portfolio's curve, named in a legend", async () => {
    const curve = (values: number[]): [string, number][] =>
      values.map((value, i) => [`2024-01-0${i + 1} 00:00:00`, value]);
    render(
      <ResultsModal
        open
        view={{
          deals: [],
          performance: { ...performance, 合约: 'GOOG,XAUUSD', equity_curve: curve([1e5, 100_030]) },
          perSymbol: {
            GOOG: { ...performance, equity_curve: curve([1e5, 100_010]) },
            XAUUSD: { ...performance, 合约: 'XAUUSD', equity_curve: curve([1e5, 100_020]) },
          },
          error: null,
        }}
        onClose={() => {}}
        saveDisabled={false}
      />,
    );
    const chart = screen.getByRole('img', { name: 'Equity Curve' });
    expect(chart).toHaveAttribute('data-overlays', '2');
    const legend = screen.getByRole('list', { name: 'Contribution of each instrument' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Portfolio', 'GOOG', 'XAUUSD']);
    // one instrument's results: its own curve, no overlays
    fireEvent.click(screen.getByTitle('XAUUSD'));
    expect(await screen.findByRole('img', { name: 'Equity Curve' })).toHaveAttribute(
      'data-overlays',
      '0',
    );
    expect(screen.queryByRole('list', { name: 'Contribution of each instrument' })).toBeNull();
  });

  describe('trade details', () => {
    const deal = (overrides: Partial<Deal>): Deal => ({
      open_date: '2024-01-02 00:00:00',
      close_date: '2024-01-03 00:00:00',
      open_price: 68_788,
      close_price: 68_829.3,
      lots: 1,
      status: 'YES',
      profit: 41.3,
      commission: 0,
      start: 1_704_153_600,
      end: 1_704_240_000,
      qty: 1,
      ...overrides,
    });
    const priceCells = () =>
      within(screen.getByRole('table', { name: 'Trade Details' }))
        .getAllByRole('row')
        .slice(1)
        .map((row) => {
          const cells = within(row).getAllByRole('cell');
          return [cells[4]?.textContent, cells[5]?.textContent];
        });
    afterEach(() => useInstrumentStore.setState({ symbols: {} }));

    it('shows the open and close prices with the run instrument’s precision', () => {
      useInstrumentStore.setState({ symbols: { BTCUSDT: { ...BTC_INFO, min_price_tick: 0.01 } } });
      render(
        <ResultsModal
          open
          view={{
            deals: [deal({}), deal({ start: 2, open_price: 68_829.3, close_price: 68_788 })],
            performance: { ...performance, 合约: 'BTCUSDT' },
            error: null,
            symbol: 'BTCUSDT',
          }}
          onClose={() => {}}
          saveDisabled={false}
        />,
      );
      expect(priceCells()).toEqual([
        ['68788.00', '68829.30'],
        ['68829.30', '68788.00'],
      ]);
    });

    it('uses 4 decimals when the instrument’s tick is unknown', () => {
      render(
        <ResultsModal
          open
          view={{ deals: [deal({})], performance, error: null }}
          onClose={() => {}}
          saveDisabled={false}
        />,
      );
      expect(priceCells()).toEqual([['68788.0000', '68829.3000']]);
    });
  });
});
