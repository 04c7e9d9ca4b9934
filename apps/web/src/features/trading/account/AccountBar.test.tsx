import type { AccountSummary } from '@ct/domain';
import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as LiveModule from '../../../realtime/live';
import { resetQuotes } from '../../../realtime/quotes';
import { buildUser } from '../../../test/fixtures';
import { renderWithProviders, storeSession } from '../../../test/render';
import { handleAccountPublication } from '../accountLive';
import { ok, setQuote, stubTradingFetch, type Call } from '../testSupport';
import { AccountBar } from './AccountBar';

vi.mock('../../../realtime/live', async (importOriginal) => ({
  ...(await importOriginal<typeof LiveModule>()),
  watchSymbol: () => () => {},
}));

/**
 * 2 BTCUSDT bought at 45,000 (10 % margin: 9,000), valued by the server at the bid 45,100:
 * P&L 200, equity 100,195, free margin 91,195, level 100,195 / 9,000 = 1,113.2778 %.
 */
function buildSummary(overrides: Partial<AccountSummary> = {}): AccountSummary {
  return {
    uuid: 'acc-1',
    currency: 'USD',
    startingBalance: 100_000,
    balance: 99_995,
    equity: 100_195,
    usedMargin: 9_000,
    freeMargin: 91_195,
    marginLevel: 1113.2778,
    realizedPnl: 0,
    unrealizedPnl: 200,
    commissionPaid: 5,
    openPositions: 1,
    pendingOrders: 0,
    exposure: [
      {
        symbol: 'BTCUSDT',
        cmd: 1,
        volume: 2,
        notional: 90_000,
        currency: 'USD',
        volume_multiple: 1,
        margin_ratio_by_money: 0.1,
        bid: 45_100,
        ask: 45_100.5,
      },
    ],
    conversion: { USDJPY: 150, EURUSD: 1.1 },
    marginWarningLevel: 100,
    marginWarning: false,
    at: 1_700_000_000_000,
    ...overrides,
  };
}

const FLAT = buildSummary({
  balance: 100_595,
  equity: 100_595,
  usedMargin: 0,
  freeMargin: 100_595,
  marginLevel: null,
  unrealizedPnl: 0,
  openPositions: 0,
  exposure: [],
});

/** The value shown under a figure's label. */
function figure(label: string): string {
  const region = screen.getByRole('region', { name: 'Account summary' });
  const term = within(region).getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent ?? '';
}

const summaryGets = (calls: Call[]) =>
  calls.filter((c) => c.path === '/trading/account/summary').length;

describe('the account bar', () => {
  beforeEach(() => {
    resetQuotes();
    storeSession(buildUser());
  });

  it('shows the server’s figures for the current account', async () => {
    const calls = stubTradingFetch({ '/trading/account/summary': ok(buildSummary()) });
    renderWithProviders(<AccountBar variant="bar" />);
    await waitFor(() => expect(figure('Equity')).toBe('100,195.00'));
    expect(figure('Balance')).toBe('99,995.00');
    expect(figure('Used Margin')).toBe('9,000.00');
    expect(figure('Free Margin')).toBe('91,195.00');
    expect(figure('Margin Level')).toBe('1,113.2778%');
    expect(figure('Floating P&L')).toBe('+200.00');
    expect(screen.getByText('USD')).toBeInTheDocument();
    const asked = calls.find((c) => c.path === '/trading/account/summary');
    expect(asked?.query.get('uuid')).toBe('acc-1');
    expect(asked?.query.get('token')).toBe('tok-1');
  });

  it('recomputes equity, free margin, level and P&L from live quotes; balance and margin stay', async () => {
    stubTradingFetch({ '/trading/account/summary': ok(buildSummary()) });
    renderWithProviders(<AccountBar variant="bar" />);
    await waitFor(() => expect(figure('Equity')).toBe('100,195.00'));
    // at the bid 45,300: P&L 2 × 300 = 600, equity 100,595, level 100,595 / 9,000
    act(() => setQuote('BTCUSDT', 45_300, 45_300.5));
    await waitFor(() => expect(figure('Equity')).toBe('100,595.00'));
    expect(figure('Floating P&L')).toBe('+600.00');
    expect(figure('Free Margin')).toBe('91,595.00');
    expect(figure('Margin Level')).toBe('1,117.7222%');
    expect(figure('Balance')).toBe('99,995.00');
    expect(figure('Used Margin')).toBe('9,000.00');
    // a loss shows red with its sign: at 44,900 the P&L is −200
    act(() => setQuote('BTCUSDT', 44_900, 44_900.5));
    await waitFor(() => expect(figure('Floating P&L')).toBe('-200.00'));
    expect(screen.getByText('-200.00')).toHaveClass('pnl-down');
  });

  it('an event of the account (a close) brings a new summary, once per burst', async () => {
    let answer = buildSummary();
    const calls = stubTradingFetch({ '/trading/account/summary': () => ok(answer) });
    renderWithProviders(<AccountBar variant="bar" />);
    await waitFor(() => expect(figure('Equity')).toBe('100,195.00'));
    expect(summaryGets(calls)).toBe(1);

    answer = FLAT;
    const closed = {
      type: 'position_closed',
      uuid: 'acc-1',
      symbol: 'BTCUSDT',
      at: 1,
      orderId: '11',
      tradeId: '31',
      volume: 2,
      full: true,
      closeReason: 1,
    };
    act(() => {
      handleAccountPublication(closed);
      handleAccountPublication({ ...closed, tradeId: '32' });
    });
    await waitFor(() => expect(figure('Balance')).toBe('100,595.00'));
    expect(figure('Used Margin')).toBe('0.00');
    expect(figure('Margin Level')).toBe('—');
    expect(figure('Floating P&L')).toBe('0.00');
    expect(summaryGets(calls)).toBe(2);
  });

  it('warns while the margin level is below the configured level', async () => {
    stubTradingFetch({
      '/trading/account/summary': ok(
        buildSummary({ marginWarningLevel: 1115, marginWarning: true }),
      ),
    });
    renderWithProviders(<AccountBar variant="card" />);
    const warning =
      'Margin level 1,113.2778% is below 1115%. Close or reduce positions to free margin.';
    expect(await screen.findByRole('alert')).toHaveTextContent(warning);
    // the price rises: 1,117.7222 % is above the level, the warning goes
    act(() => setQuote('BTCUSDT', 45_300, 45_300.5));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    // and falls: at 45,000 the equity is the balance, 1,111.0556 %
    act(() => setQuote('BTCUSDT', 45_000, 45_000.5));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Margin level 1,111.0556% is below 1115%',
    );
  });

  it('the desktop bar names the level in its warning', async () => {
    stubTradingFetch({
      '/trading/account/summary': ok(
        buildSummary({ marginWarningLevel: 1115, marginWarning: true }),
      ),
    });
    renderWithProviders(<AccountBar variant="bar" />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Below 1115%');
    expect(alert).toHaveAccessibleName(
      'Margin level 1,113.2778% is below 1115%. Close or reduce positions to free margin.',
    );
  });

  it('shows why when the summary cannot be loaded', async () => {
    stubTradingFetch({
      '/trading/account/summary': ok(null, 'Failed to get the account summary'),
    });
    renderWithProviders(<AccountBar variant="bar" />);
    expect(await screen.findByText('Failed to get the account summary')).toBeInTheDocument();
  });

  it('shows nothing and asks nothing without a trading account', async () => {
    const calls = stubTradingFetch({ '/trading/account/summary': ok(buildSummary()) });
    localStorage.clear();
    storeSession(buildUser(), { withTrader: false });
    renderWithProviders(<AccountBar variant="bar" />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'Account summary' })).not.toBeInTheDocument();
    expect(summaryGets(calls)).toBe(0);
  });
});
