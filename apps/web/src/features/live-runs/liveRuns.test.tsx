import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useInstrumentStore } from '../../market/instruments';
import { buildUser } from '../../test/fixtures';
import { renderWithProviders, storeSession } from '../../test/render';
import { json, stubServer } from '../aiTasks/testSupport';
import { disposeAutoSave } from '../strategy/actions';
import { StrategyToolbar } from '../strategy/editor/StrategyToolbar';
import { resetEditorStore, useEditorStore, useWorkbenchStore } from '../strategy/store';
import { LiveRunPanels } from './LiveRunPanels';
import type { AccountEvent } from '@ct/domain';
import { handleAccountPublication } from '../trading/accountLive';
import { liveRunKeys, liveRunKeysChangedBy, refetchLiveRuns } from './queries';
import { registerLiveRuns } from './register';
import { resetLiveRunsUi, useLiveRunsUi } from './store';
import { buildComparison, buildEvaluation, buildRun, OTHER_RUN_ID, RUN_ID } from './testSupport';

beforeEach(() => {
  storeSession(buildUser());
  resetLiveRunsUi();
  resetEditorStore();
  useEditorStore.setState({ selected: 'SMA Cross', templatePending: false });
  // the editor was opened for the first chart (BTCUSDT 1m in a fresh workspace)
  useWorkbenchStore.setState({
    request: { chartId: 'chart-1', symbol: 'BTCUSDT', period: '1m' },
    open: true,
  });
  useInstrumentStore.setState({
    groups: [
      {
        id: 1,
        code: 'crypto',
        name: 'Crypto',
        children: [
          { id: 'BTCUSDT', name: 'BTCUSDT', group: 'Crypto', isNeedExtraTimeRange: false },
          { id: 'ETHUSDT', name: 'ETHUSDT', group: 'Crypto', isNeedExtraTimeRange: false },
        ],
      },
    ],
  });
});
afterEach(() => {
  useWorkbenchStore.setState({ request: null, open: false });
  disposeAutoSave();
});

/** The open modal titled `title` (antd gives every dialog the same labelledby id in tests). */
function dialog(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('.ant-modal')].find(
      (modal) => modal.querySelector('.ant-modal-title')?.textContent === title,
    );
    if (!found) throw new Error(`No dialog titled ${title}`);
    return found;
  });
}

const okButton = (modal: HTMLElement, name: string) =>
  within(modal).getByRole('button', { name: new RegExp(name) });

describe('Run live on paper', () => {
  it('beside Run Code, opens a form with the chart, the current account, size 1 and one position', async () => {
    const unplug = registerLiveRuns();
    stubServer({});
    const { user } = renderWithProviders(
      <>
        <StrategyToolbar />
        <LiveRunPanels />
      </>,
    );
    const toolbar = screen.getByTestId('strategy-toolbar');
    const buttons = within(toolbar)
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(buttons.slice(-4)).toEqual(['Live Runs', 'Run live on paper', 'Optimize', 'Run Code']);
    await user.click(within(toolbar).getByRole('button', { name: /Run live on paper/ }));
    const form = await dialog('Run live on paper');
    expect(form.textContent).toContain('Strategy: SMA Cross');
    expect(within(form).getByText(/Runs the saved code of SMA Cross/)).toBeInTheDocument();
    expect(form.querySelector('[title="Main Account · acc-1"]')).not.toBeNull();
    expect(form.querySelector('[title="BTCUSDT"]')).not.toBeNull();
    expect(form.querySelector('[title="1m"]')).not.toBeNull();
    expect(within(form).getByLabelText('Size (lots multiplier)')).toHaveValue('1');
    expect(within(form).getByLabelText('Max open positions')).toHaveValue('1');
    unplug();
  });

  it('says what is wrong with the size and the limit and sends nothing', async () => {
    const server = stubServer({});
    useLiveRunsUi.setState({ startOpen: true });
    const { fill, user } = renderWithProviders(<LiveRunPanels />);
    const form = await dialog('Run live on paper');
    await fill(within(form).getByLabelText('Size (lots multiplier)'), '0');
    await fill(within(form).getByLabelText('Max open positions'), '1.5');
    await user.click(okButton(form, 'Start'));
    expect(await within(form).findByText('Size must be above 0 and at most 1000')).toBeVisible();
    expect(within(form).getByLabelText('Max open positions')).toHaveValue('1.5');
    expect(
      await within(form).findByText('Max open positions must be a whole number from 1 to 100'),
    ).toBeVisible();
    await user.clear(within(form).getByLabelText('Size (lots multiplier)'));
    expect(await within(form).findByText('Please enter the size')).toBeVisible();
    expect(server.called('POST /api/live-runs')).toHaveLength(0);
  });

  it('Start sends the run, closes the form and shows it in Live Runs', async () => {
    let runs = [buildRun({ id: OTHER_RUN_ID, status: 'stopped', stopped_at: 1_700_000_900 })];
    const server = stubServer({
      'POST /api/live-runs': () => {
        runs = [buildRun({ evaluations: 0, orders: 0, last_evaluation_at: null }), ...runs];
        return json({ id: RUN_ID, status: 'running' }, 201);
      },
      'GET /api/live-runs': () => json({ runs }),
      [`GET /api/live-runs/${RUN_ID}/evaluations`]: () => json({ evaluations: [], total: 0 }),
    });
    useLiveRunsUi.setState({ startOpen: true });
    const { fill, user } = renderWithProviders(<LiveRunPanels />);
    const form = await dialog('Run live on paper');
    await fill(within(form).getByLabelText('Size (lots multiplier)'), '2');
    await fill(within(form).getByLabelText('Max open positions'), '3');
    await user.click(okButton(form, 'Start'));
    await waitFor(() => expect(server.called('POST /api/live-runs')).toHaveLength(1));
    expect(server.called('POST /api/live-runs')[0]!.body).toEqual({
      strategy_name: 'SMA Cross',
      uuid: 'acc-1',
      token: 'tok-1',
      symbol_id: 'BTCUSDT',
      period: '1m',
      lots: 2,
      max_positions: 3,
    });
    expect(await screen.findByText('Live run of SMA Cross on BTCUSDT started')).toBeVisible();
    const panel = await dialog('Live Runs');
    await waitFor(() => expect(useLiveRunsUi.getState().startOpen).toBe(false));
    const rows = await within(panel).findAllByRole('row');
    // the new run leads and is shown below the list
    expect(rows[1]!.textContent).toContain('Running');
    expect(within(panel).getByText('SMA Cross · BTCUSDT · 1m')).toBeInTheDocument();
    expect(
      await within(panel).findByText('No evaluation yet: the first runs at the next bar close'),
    ).toBeInTheDocument();
  });

  it('a refusal shows the server’s reason in the form, which stays open', async () => {
    stubServer({
      'POST /api/live-runs': () => json({ detail: 'At most 5 live runs at once' }, 422),
    });
    useLiveRunsUi.setState({ startOpen: true });
    const { user } = renderWithProviders(<LiveRunPanels />);
    const form = await dialog('Run live on paper');
    await user.click(okButton(form, 'Start'));
    expect(
      await within(form).findByText('Could not start the live run: At most 5 live runs at once'),
    ).toBeVisible();
    expect(useLiveRunsUi.getState().startOpen).toBe(true);
  });
});

describe('the Live Runs panel', () => {
  it('shows each run’s status, P&L, open positions, last evaluation and error', async () => {
    stubServer({
      'GET /api/live-runs': () =>
        json({
          runs: [
            buildRun({ consecutive_failures: 2, error: 'ZeroDivisionError: division by zero' }),
            buildRun({
              id: OTHER_RUN_ID,
              strategy_name: 'Breakout',
              symbol_id: 'ETHUSDT',
              period: '1h',
              status: 'failed',
              net_profit: 30,
              open_positions: 0,
              error: 'Stopped after 5 failures in a row',
            }),
          ],
        }),
      [`GET /api/live-runs/${RUN_ID}/evaluations`]: () => json({ evaluations: [], total: 0 }),
    });
    useLiveRunsUi.setState({ panelOpen: true });
    renderWithProviders(<LiveRunPanels />);
    const panel = await dialog('Live Runs');
    const table = within(panel).getAllByRole('table')[0]!;
    for (const title of [
      'Status',
      'P&L',
      'Open positions',
      'Last evaluation',
      'Last error',
      'Actions',
    ]) {
      expect(within(table).getByRole('columnheader', { name: title })).toBeInTheDocument();
    }
    const rows = await within(panel).findAllByText(/SMA Cross|Breakout/);
    expect(rows.length).toBeGreaterThan(0);
    const body = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent ?? '');
    expect(body[0]).toContain('BTCUSDT · 1m');
    expect(body[0]).toContain('Main Account');
    expect(body[0]).toContain('Running');
    expect(body[0]).toContain('2 of 5 failures in a row');
    expect(body[0]).toContain('-12.50');
    expect(body[0]).toContain('ZeroDivisionError: division by zero');
    expect(body[1]).toContain('Failed');
    expect(body[1]).toContain('+30.00');
    expect(body[1]).toContain('Stopped after 5 failures in a row');
    // only a running run can be stopped
    expect(
      within(panel).getByRole('button', { name: 'Stop the live run of SMA Cross on BTCUSDT' }),
    ).toBeInTheDocument();
    expect(
      within(panel).queryByRole('button', { name: 'Stop the live run of Breakout on ETHUSDT' }),
    ).toBeNull();
  });

  it('Stop asks first, then stops the run', async () => {
    let status: 'running' | 'stopped' = 'running';
    const server = stubServer({
      'GET /api/live-runs': () => json({ runs: [buildRun({ status })] }),
      [`POST /api/live-runs/${RUN_ID}/stop`]: () => {
        status = 'stopped';
        return json({ id: RUN_ID, status: 'stopped' });
      },
      [`GET /api/live-runs/${RUN_ID}/evaluations`]: () => json({ evaluations: [], total: 0 }),
    });
    useLiveRunsUi.setState({ panelOpen: true });
    const { user } = renderWithProviders(<LiveRunPanels />);
    const panel = await dialog('Live Runs');
    await user.click(
      await within(panel).findByRole('button', {
        name: 'Stop the live run of SMA Cross on BTCUSDT',
      }),
    );
    const confirm = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('.ant-modal-confirm');
      if (!found) throw new Error('no confirmation');
      return found;
    });
    expect(confirm.textContent).toContain('Stop this live run?');
    expect(confirm.textContent).toContain('SMA Cross on BTCUSDT will send no more orders');
    expect(server.called(`POST /api/live-runs/${RUN_ID}/stop`)).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Stop run' }));
    expect(await screen.findByText('Live run stopped')).toBeVisible();
    expect(server.called(`POST /api/live-runs/${RUN_ID}/stop`)).toHaveLength(1);
    await waitFor(() => expect(within(panel).getAllByText('Stopped').length).toBeGreaterThan(0));
    expect(
      within(panel).queryByRole('button', { name: 'Stop the live run of SMA Cross on BTCUSDT' }),
    ).toBeNull();
  });

  it('pages the run’s evaluations and shows wanted positions, orders, fills and errors', async () => {
    const server = stubServer({
      'GET /api/live-runs': () => json({ runs: [buildRun()] }),
      [`GET /api/live-runs/${RUN_ID}/evaluations`]: () =>
        json({
          evaluations: [
            buildEvaluation({ printed: ['fast 45010 slow 44990'] }),
            buildEvaluation({
              at: 1_700_000_660,
              wanted: [],
              orders: [
                {
                  action: 'close',
                  cmd: 2,
                  volume: 2,
                  client_order_id: 'lr0f8fad5bd9cb-c30',
                  order_id: '30',
                  status: 'rejected',
                  price: null,
                  strategy_price: 44_950,
                  message: 'Market is closed',
                },
              ],
              error: 'Market is closed',
            }),
          ],
          total: 25,
        }),
    });
    useLiveRunsUi.setState({ panelOpen: true, selectedId: RUN_ID });
    const { user } = renderWithProviders(<LiveRunPanels />);
    const panel = await dialog('Live Runs');
    const evaluations = await within(panel).findByRole('table', { name: 'Evaluations' });
    await within(evaluations).findByText(/filled @ 45010/);
    const rows = within(evaluations)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent ?? '');
    expect(rows[0]).toContain('500');
    expect(rows[0]).toContain('Buy 1 @ 45000');
    expect(rows[0]).toContain('Open Buy 2 filled @ 45010');
    expect(rows[0]).toContain('42 ms');
    expect(rows[1]).toContain('flat');
    expect(rows[1]).toContain('Close Sell 2 refused: Market is closed');
    expect(server.calls.at(-1)!.url.searchParams.get('limit')).toBe('10');
    // 25 kept, 10 a page: the third page skips the first twenty
    await user.click(within(panel).getByTitle('3'));
    await waitFor(() => expect(server.calls.at(-1)!.url.searchParams.get('skip')).toBe('20'));
  });

  it('asks for the evaluations again when the list shows the run moved', async () => {
    let evaluations = 12;
    const server = stubServer({
      'GET /api/live-runs': () => json({ runs: [buildRun({ evaluations })] }),
      [`GET /api/live-runs/${RUN_ID}/evaluations`]: () =>
        json({ evaluations: [buildEvaluation()], total: evaluations }),
    });
    useLiveRunsUi.setState({ panelOpen: true, selectedId: RUN_ID });
    renderWithProviders(<LiveRunPanels />);
    await dialog('Live Runs');
    const evaluationCalls = () => server.called(`GET /api/live-runs/${RUN_ID}/evaluations`);
    await waitFor(() => expect(evaluationCalls()).toHaveLength(1));
    await act(() => refetchLiveRuns());
    expect(evaluationCalls()).toHaveLength(1);
    evaluations = 13;
    await act(() => refetchLiveRuns());
    await waitFor(() => expect(evaluationCalls()).toHaveLength(2));
  });

  it('follows the run’s events: an evaluation shows without Refresh', async () => {
    let evaluations = 0;
    const server = stubServer({
      'GET /api/live-runs': () =>
        json({
          runs: [
            buildRun({
              evaluations,
              orders: evaluations,
              open_positions: evaluations,
              last_evaluation_at: evaluations ? 1_700_000_720 : null,
            }),
          ],
        }),
      [`GET /api/live-runs/${RUN_ID}/evaluations`]: () =>
        json({ evaluations: evaluations ? [buildEvaluation()] : [], total: evaluations }),
    });
    useLiveRunsUi.setState({ panelOpen: true, selectedId: RUN_ID });
    renderWithProviders(<LiveRunPanels />);
    const panel = await dialog('Live Runs');
    await within(panel).findByText('No evaluation yet: the first runs at the next bar close');
    const listCalls = server.called('GET /api/live-runs').length;

    // the bar closed: the run bought, then its evaluation was written
    evaluations = 1;
    act(() =>
      handleAccountPublication({
        type: 'live_run_evaluated',
        uuid: 'acc-1',
        symbol: 'BTCUSDT',
        at: 1_700_000_720_500,
        runId: RUN_ID,
        status: 'running',
        failed: false,
        evaluations: 1,
        orders: 1,
      }),
    );
    const table = within(panel).getByRole('table', { name: 'Evaluations' });
    await within(table).findByText(/filled @ 45010/);
    await waitFor(() =>
      expect(server.called('GET /api/live-runs').length).toBeGreaterThan(listCalls),
    );
    // one fetch of the evaluations per evaluation, though the list's answer shows it too
    expect(server.called(`GET /api/live-runs/${RUN_ID}/evaluations`)).toHaveLength(2);
  });

  it('reopened, shows what happened while it was closed', async () => {
    let evaluations = 0;
    stubServer({
      'GET /api/live-runs': () =>
        json({
          runs: [
            buildRun({
              evaluations,
              last_evaluation_at: evaluations ? 1_700_000_720 : null,
            }),
          ],
        }),
      [`GET /api/live-runs/${RUN_ID}/evaluations`]: () =>
        json({ evaluations: evaluations ? [buildEvaluation()] : [], total: evaluations }),
    });
    useLiveRunsUi.setState({ panelOpen: true, selectedId: RUN_ID });
    renderWithProviders(<LiveRunPanels />);
    let panel = await dialog('Live Runs');
    await within(panel).findByText('No evaluation yet: the first runs at the next bar close');
    act(() => useLiveRunsUi.setState({ panelOpen: false }));
    await waitFor(() => expect(document.querySelector('.live-runs-modal')).toBeNull());

    evaluations = 2;
    act(() => useLiveRunsUi.setState({ panelOpen: true }));
    panel = await dialog('Live Runs');
    const table = await within(panel).findByRole('table', { name: 'Evaluations' });
    await within(table).findByText(/filled @ 45010/);
  });

  it('compares the run with its backtest: P&L, the gap by cause, the trades', async () => {
    stubServer({
      'GET /api/live-runs': () => json({ runs: [buildRun()] }),
      [`GET /api/live-runs/${RUN_ID}/evaluations`]: () => json({ evaluations: [], total: 0 }),
      [`GET /api/live-runs/${RUN_ID}/comparison`]: () => json(buildComparison()),
    });
    useLiveRunsUi.setState({ panelOpen: true, selectedId: RUN_ID });
    const { user } = renderWithProviders(<LiveRunPanels />);
    const panel = await dialog('Live Runs');
    await user.click(await within(panel).findByRole('tab', { name: 'Backtest vs forward' }));
    const trades = await within(panel).findByRole('table', { name: 'Trades' });
    const summary = panel.querySelector('.live-run-summary')!;
    expect(summary.textContent).toContain('Backtest P&L+250.00');
    expect(summary.textContent).toContain('Forward P&L+150.00');
    expect(summary.textContent).toContain('Gap (forward − backtest)-100.00');
    const causes = panel.querySelector('.live-run-causes')!;
    expect(causes.textContent).toContain('Spread-40.00');
    expect(causes.textContent).toContain('Commission-4.00');
    expect(causes.textContent).toContain('Missed bars-56.00');
    expect(panel.textContent).toContain('1 matched · 1 only in the backtest · 1 only forward');
    const rows = within(trades)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent ?? '');
    expect(rows[0]).toMatch(/^MatchedBuy2/);
    expect(rows[0]).toContain('10.00');
    expect(rows[0]).toContain('same bar');
    expect(rows[0]).toContain('-44.00');
    expect(rows[1]).toMatch(/^Only forwardSell2/);
    expect(rows[1]).toContain('(open)');
    expect(rows[2]).toMatch(/^Only backtestBuy2/);
  });
});

describe('the live runs’ queries an account event changes', () => {
  const base = { uuid: 'acc-1', symbol: 'BTCUSDT', at: 1_700_000_720_000 };
  it('an evaluation: the list, the run’s evaluations and its comparison', () => {
    const event: AccountEvent = {
      ...base,
      type: 'live_run_evaluated',
      runId: RUN_ID,
      status: 'failed',
      failed: true,
      evaluations: 3,
      orders: 0,
    };
    expect(liveRunKeysChangedBy(event)).toEqual([
      liveRunKeys.list,
      liveRunKeys.evaluations(RUN_ID),
      liveRunKeys.comparison(RUN_ID),
    ]);
  });

  it('a position opened or closed: the list (P&L, open positions); a pending order: nothing', () => {
    expect(
      liveRunKeysChangedBy({ ...base, type: 'position_opened', orderId: '31', pId: null }),
    ).toEqual([liveRunKeys.list]);
    expect(
      liveRunKeysChangedBy({
        ...base,
        type: 'position_closed',
        orderId: '31',
        tradeId: '7',
        volume: 2,
        full: true,
        closeReason: 4,
      }),
    ).toEqual([liveRunKeys.list]);
    expect(liveRunKeysChangedBy({ ...base, type: 'pending_added', pId: '5' })).toEqual([]);
  });
});
