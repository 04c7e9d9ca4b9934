import type { OptimizationDetail } from '@ct/domain';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../shared/queryClient';
import { renderWithProviders } from '../../../test/render';
import { json, stubServer } from '../../aiTasks/testSupport';
import { disposeAutoSave } from '../actions';
import { resetEditorStore, useEditorStore, useWorkbenchStore } from '../store';
import OptimizeDialog from './OptimizeDialog';
import { resetOptimizeStore, useOptimizeStore } from './store';

const CODE = `"""A crossover."""

PARAMS = {
    "fast": 10,  # bars of the fast average
    "slow": 30,
}


def main(data_array):
    return []
`;

const ID = '0b6a3c1e-6a43-4c59-9a3c-1d2f6f0f9a11';

const perf = (net_profit: number, sharpe: number | null = 0.5) => ({
  net_profit,
  trade_count: 4,
  win_rate: 0.5,
  sharpe,
  max_drawdown: 0.1,
  profit_factor: 1.5,
  sqn: 0.8,
});

function detail(overrides: Partial<OptimizationDetail> = {}): OptimizationDetail {
  const trials = [
    { fast: 5, slow: 20, profit: 100, sharpe: 0.5 },
    { fast: 5, slow: 40, profit: -50, sharpe: -0.2 },
    { fast: 15, slow: 20, profit: 300, sharpe: 1.2 },
    { fast: 15, slow: 40, profit: 20, sharpe: 0.1 },
  ].map((t, index) => ({
    index,
    params: { fast: t.fast, slow: t.slow },
    status: 'done' as const,
    performance: perf(t.profit, t.sharpe),
    objective: t.profit,
  }));
  return {
    id: ID,
    status: 'COMPLETED',
    strategy_name: 'Default',
    symbol_id: 'GOOG',
    period: 'day',
    objective: 'net_profit',
    method: 'grid',
    bar_count: 1000,
    code: CODE,
    created_at: 1_700_000_000,
    progress: { done: 4, total: 4, eta_s: 0 },
    best: { params: { fast: 15, slow: 20 }, performance: perf(300) },
    trials_count: 4,
    trials,
    overfitting: {
      pbo: { value: 0.75, partitions: 16, combinations: 12870 },
      deflated_sharpe: { value: 0.2, sharpe: 0.05, expected_max_sharpe: 0.09 },
      trials: 4,
      verdict: 'likely overfit',
      reasons: ['4 parameter combinations ran and the best one was chosen.'],
    },
    ...overrides,
  };
}

beforeEach(() => {
  resetEditorStore();
  resetOptimizeStore();
  queryClient.clear();
  useEditorStore.setState({ code: CODE, selected: 'Default' });
  useWorkbenchStore.setState({
    open: true,
    request: { chartId: 'c1', symbol: 'GOOG', period: 'day' },
  });
  useOptimizeStore.setState({ open: true, requested: true });
});
afterEach(() => {
  useWorkbenchStore.setState({ open: false });
  disposeAutoSave();
});

const count = () => screen.getByTestId('optimize-count');
const field = (name: string) => screen.getByRole('spinbutton', { name });
const setNumber = (name: string, value: string) =>
  fireEvent.change(field(name), { target: { value } });

describe('the optimise dialog', () => {
  it('shows the declared parameters with their defaults and counts the trials before starting', async () => {
    renderWithProviders(<OptimizeDialog />);
    expect(await screen.findByRole('group', { name: 'fast' })).toHaveTextContent('Default 10');
    expect(screen.getByRole('group', { name: 'slow' })).toHaveTextContent('Default 30');
    // two steps either side of each default
    expect(count()).toHaveTextContent('25 combinations · 25 backtests');

    setNumber('Min of fast', '5');
    setNumber('Max of fast', '15');
    setNumber('Step of fast', '5');
    setNumber('Min of slow', '20');
    setNumber('Max of slow', '40');
    setNumber('Step of slow', '10');
    await waitFor(() => expect(count()).toHaveTextContent('9 combinations · 9 backtests'));

    // the constraint allows 5×20, 5×30, 5×40, 10×30, 10×40, 15×40 (fast * 2 < slow)
    fireEvent.change(screen.getByRole('textbox', { name: 'Constraint' }), {
      target: { value: 'fast * 2 < slow' },
    });
    await waitFor(() => expect(count()).toHaveTextContent('6 combinations · 6 backtests'));

    // walk-forward: the combinations once on all bars and per fold in sample, one per fold out of sample
    fireEvent.click(screen.getByRole('switch', { name: 'Walk-forward analysis' }));
    await waitFor(() => expect(count()).toHaveTextContent('6 combinations · 27 backtests'));
  });

  it('names what is wrong and does not start', async () => {
    const server = stubServer({});
    renderWithProviders(<OptimizeDialog />);
    await screen.findByRole('group', { name: 'fast' });
    const start = screen.getByRole('button', { name: /Start optimization/ });

    setNumber('Step of fast', '0');
    expect(await screen.findByText('fast.step: step must be above 0')).toBeInTheDocument();
    expect(start).toBeDisabled();
    setNumber('Step of fast', '2');
    await waitFor(() => expect(start).toBeEnabled());

    fireEvent.change(screen.getByRole('textbox', { name: 'Constraint' }), {
      target: { value: 'fast < medium' },
    });
    expect(await screen.findByText(/^Constraint: unknown name medium/)).toBeInTheDocument();
    expect(start).toBeDisabled();
    fireEvent.change(screen.getByRole('textbox', { name: 'Constraint' }), {
      target: { value: '' },
    });

    fireEvent.click(screen.getByRole('checkbox', { name: 'Vary fast' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Vary slow' }));
    expect(await screen.findByText('Vary at least one parameter')).toBeInTheDocument();
    expect(start).toBeDisabled();
    expect(server.calls).toHaveLength(0);
  });

  it('starts with the editor code and shows the progress with ETA and Cancel', async () => {
    let status: 'PROCESSING' | 'CANCELLED' = 'PROCESSING';
    const server = stubServer({
      'POST /api/optimizations': () => json({ id: ID, status: 'PENDING', trials_total: 25 }),
      [`GET /api/optimizations/${ID}`]: () =>
        json(
          detail({
            status,
            progress: { done: 5, total: 25, eta_s: status === 'PROCESSING' ? 12 : 0 },
            best: null,
            trials: [],
            overfitting: undefined,
          }),
        ),
      [`POST /api/optimizations/${ID}/cancel`]: () => {
        status = 'CANCELLED';
        return json({ id: ID, status, progress: { done: 5, total: 25, eta_s: 0 } });
      },
      'GET /api/optimizations': () => json({ items: [] }),
    });
    const { user } = renderWithProviders(<OptimizeDialog />);
    await user.click(await screen.findByRole('button', { name: /Start optimization/ }));

    expect(await screen.findByTestId('optimize-progress')).toHaveTextContent('5 / 25 backtests');
    expect(screen.getByText('about 12 s left')).toBeInTheDocument();
    const [created] = server.called('POST /api/optimizations');
    expect(created?.body).toMatchObject({
      code: CODE,
      strategy_name: 'Default',
      symbol_id: 'GOOG',
      period: 'day',
      params: { fast: { min: 6, max: 14, step: 2 }, slow: { min: 18, max: 42, step: 6 } },
      objective: 'net_profit',
      method: 'grid',
    });

    await user.click(screen.getByRole('button', { name: /Cancel/ }));
    await waitFor(() =>
      expect(server.called(`POST /api/optimizations/${ID}/cancel`)).toHaveLength(1),
    );
    expect(await screen.findByText('Cancelled')).toBeInTheDocument();
    expect(screen.queryByTestId('optimize-progress')).not.toBeInTheDocument();
  });

  it('shows the verdict on top, a sortable table of the trials and the heatmap', async () => {
    stubServer({ [`GET /api/optimizations/${ID}`]: () => json(detail()) });
    useOptimizeStore.setState({ current: ID, tab: 'current' });
    const { user } = renderWithProviders(<OptimizeDialog />);

    const verdict = await screen.findByRole('region', { name: 'Is it real?' });
    expect(verdict).toHaveTextContent('Likely overfit');
    expect(verdict).toHaveTextContent('4 parameter combinations ran and the best one was chosen.');
    expect(verdict).toHaveTextContent('75%');
    expect(verdict).toHaveTextContent('Best parameters: fast=15, slow=20');

    // a sticky header: the header and the body are tables of their own
    const [head, body] = screen.getAllByRole('table', { name: 'Trials' });
    const netProfits = () =>
      within(body as HTMLElement)
        .getAllByRole('row')
        .filter((row) => within(row).queryAllByRole('cell').length > 4)
        .map((row) => within(row).getAllByRole('cell')[2]?.textContent);
    // best objective first
    expect(
      within(head as HTMLElement).getByRole('columnheader', { name: 'Net profit (objective)' }),
    ).toHaveAttribute('aria-sort', 'descending');
    expect(netProfits()).toEqual(['300.00', '100.00', '20.00', '-50.00']);
    await user.click(within(head as HTMLElement).getByRole('columnheader', { name: 'Sharpe' }));
    expect(netProfits()).toEqual(['-50.00', '20.00', '100.00', '300.00']);
    await user.click(within(head as HTMLElement).getByRole('columnheader', { name: 'Sharpe' }));
    expect(netProfits()).toEqual(['300.00', '100.00', '20.00', '-50.00']);

    await user.click(screen.getByRole('tab', { name: 'Heatmap' }));
    const heatmap = await screen.findByRole('table', { name: 'Net profit by fast and slow' });
    const cells = within(heatmap)
      .getAllByRole('row')
      .map((row) => [...row.querySelectorAll('th, td')].map((c) => c.textContent));
    expect(cells).toEqual([
      ['slow \\ fast', '5', '15'],
      ['20', '100', '300'],
      ['40', '-50.00', '20.00'],
    ]);
  });

  it('Use these parameters offers the values written into PARAMS as a diff, changing nothing before Accept', async () => {
    stubServer({ [`GET /api/optimizations/${ID}`]: () => json(detail()) });
    useOptimizeStore.setState({ current: ID, tab: 'current' });
    const { user } = renderWithProviders(<OptimizeDialog />);
    const verdict = await screen.findByRole('region', { name: 'Is it real?' });
    await user.click(
      within(verdict).getByRole('button', { name: 'Use these parameters: fast=15, slow=20' }),
    );
    const { proposal, code } = useEditorStore.getState();
    expect(code).toBe(CODE);
    expect(proposal?.original).toBe(CODE);
    expect(proposal?.code).toBe(
      CODE.replace('"fast": 10,', '"fast": 15,').replace('"slow": 30,', '"slow": 20,'),
    );
    // the dialog steps aside so the diff is seen
    expect(useOptimizeStore.getState().open).toBe(false);
    act(() => useEditorStore.setState({ proposal: null }));
  });
  it("a trial's Result backtests its values on the optimisation's own bars and opens the results", async () => {
    const deal = {
      open_date: '2020-01-02 00:00:00',
      close_date: '2020-01-03 00:00:00',
      open_price: 10,
      close_price: 11,
      lots: 1,
      status: 'YES',
      profit: 1,
      commission: 0,
      start: 1_577_923_200,
      end: 1_578_009_600,
      qty: 1,
    };
    const data = {
      run_id: null,
      deals: [deal],
      performance: null,
      error: null,
      error_kind: null,
      logs: [],
    };
    const server = stubServer({
      [`GET /api/optimizations/${ID}`]: () => json(detail()),
      [`POST /api/optimizations/${ID}/backtest`]: () => json({ success: true, reason: null, data }),
    });
    useOptimizeStore.setState({ current: ID, tab: 'current' });
    const { user } = renderWithProviders(<OptimizeDialog />);
    const verdict = await screen.findByRole('region', { name: 'Is it real?' });
    await user.click(within(verdict).getByRole('button', { name: /Result.*fast=15, slow=20/ }));
    await waitFor(() => expect(useEditorStore.getState().results?.deals).toHaveLength(1));
    const [call] = server.called(`POST /api/optimizations/${ID}/backtest`);
    expect(call?.body).toMatchObject({ params: { fast: 15, slow: 20 } });
    expect(server.called('POST /api/backtest/run')).toHaveLength(0);
  });
});
