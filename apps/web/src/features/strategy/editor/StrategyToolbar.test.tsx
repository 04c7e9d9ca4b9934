import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../shared/queryClient';
import { jsonResponse } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { disposeAutoSave } from '../actions';
import { strategiesQuery, versionsQuery } from '../queries';
import { resetEditorStore, useEditorStore, useWorkbenchStore } from '../store';
import type * as LogSocketModule from '../logSocket';
import type { LogSocketListener } from '../logSocket';
import { SaveAsModal } from './SaveAsModal';
import { StrategyToolbar } from './StrategyToolbar';

// the run's log socket: the test plays the server's lines into it
const sockets = vi.hoisted(() => new Map<string, LogSocketListener>());
vi.mock('../logSocket', async (importOriginal) => ({
  ...(await importOriginal<typeof LogSocketModule>()),
  openLogSocket: (clientId: string, listener: LogSocketListener) => {
    sockets.set(clientId, listener);
    return () => sockets.delete(clientId);
  },
}));

const strategies = [{ name: 'Mine', code: '# mine', created_at: 1, updated_at: 2 }];
const version = { id: 4, created_at: 1_700_000_000, length: 6, lines: 1, preview: '# old' };

beforeEach(() => {
  resetEditorStore();
  useWorkbenchStore.setState({ open: true });
  queryClient.setQueryData(strategiesQuery.queryKey, strategies);
  queryClient.setQueryData(versionsQuery('Mine').queryKey, [version]);
});
afterEach(() => {
  useWorkbenchStore.setState({ open: false });
  disposeAutoSave();
});

describe('the editor toolbar', () => {
  it('offers Default first, and Run Code only for code that is not blank', async () => {
    renderWithProviders(<StrategyToolbar />);
    expect(screen.getByText('Default Strategy (read-only)')).toBeInTheDocument();
    const run = screen.getByRole('button', { name: /Run Code/ });
    expect(run).toBeDisabled();
    act(() => useEditorStore.setState({ code: '  \n' }));
    expect(run).toBeDisabled();
    act(() => useEditorStore.setState({ code: 'def main(data_array): pass' }));
    await waitFor(() => expect(run).toBeEnabled());
  });

  it('Run Code shows how far a long run is through its bars, then Run Code again', async () => {
    renderWithProviders(<StrategyToolbar />);
    act(() => useEditorStore.setState({ code: 'def main(data_array): pass', running: true }));
    const socket = () => sockets.get(useEditorStore.getState().clientId);
    await waitFor(() => expect(socket()).toBeDefined());
    act(() =>
      socket()?.lines([
        '[backtest] Started default_strategy.py on GEN 1m (1000000 bars)',
        '[backtest] Running: 45% of the bars',
      ]),
    );
    expect(await screen.findByRole('button', { name: /Running… 45%/ })).toBeInTheDocument();
    act(() =>
      socket()?.lines(['a line the strategy printed', '[backtest] Running: 90% of the bars']),
    );
    expect(await screen.findByRole('button', { name: /Running… 90%/ })).toBeInTheDocument();
    act(() => {
      socket()?.lines(['[backtest] Finished in 41.2 s: 40400 trades, net profit 12.00']);
      useEditorStore.setState({ running: false });
    });
    expect(await screen.findByRole('button', { name: /Run Code/ })).toBeInTheDocument();
  });

  it('Run Code asks the API for the bars chosen in Bars; a count it cannot take is refused', async () => {
    const bodies: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit = {}) => {
        bodies.push(JSON.parse(String(init.body)));
        return jsonResponse({
          success: true,
          reason: null,
          data: {
            run_id: 'r1',
            deals: [],
            performance: null,
            error: null,
            error_kind: null,
            logs: [],
          },
        });
      }),
    );
    useWorkbenchStore.setState({
      open: true,
      request: { chartId: 'chart-1', symbol: 'BTCUSDT', period: '1m' },
    });
    const { user } = renderWithProviders(<StrategyToolbar />);
    act(() => useEditorStore.setState({ code: 'def main(data_array): return []' }));
    const bars = screen.getByRole('spinbutton', { name: 'Bars' });
    expect(bars).toHaveValue('1,000');

    await user.clear(bars);
    await user.type(bars, '1000001');
    expect(bars).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: /Run Code/ }));
    expect(
      await screen.findByText('Bars must be a whole number from 1 to 1,000,000'),
    ).toBeInTheDocument();
    expect(bodies).toEqual([]);

    await user.clear(bars);
    await user.type(bars, '1,000,000');
    expect(bars).toHaveAttribute('aria-invalid', 'false');
    await user.click(screen.getByRole('button', { name: /Run Code/ }));
    await waitFor(() => expect(useEditorStore.getState().results).not.toBeNull());
    expect(bodies).toEqual([
      expect.objectContaining({ symbol: 'BTCUSDT', period: '1m', limit: 1_000_000 }),
    ]);
    expect(useEditorStore.getState().results).toMatchObject({ runId: 'r1', error: null });
    vi.unstubAllGlobals();
  });

  it('the status button shows the auto-save indicator', () => {
    renderWithProviders(<StrategyToolbar />);
    const indicator = screen.getByTestId('save-indicator');
    expect(indicator).toHaveTextContent('Save Strategy');
    act(() => useEditorStore.setState({ indicator: 'skipped' }));
    expect(indicator).toHaveTextContent('Auto-save skipped: empty code');
    expect(indicator).toHaveAttribute('data-state', 'skipped');
  });

  it('Restore previous version is offered for a saved strategy with versions only', async () => {
    const { user } = renderWithProviders(<StrategyToolbar />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const item = await screen.findByRole('menuitem', { name: /Restore previous version/ });
    expect(item).toHaveAttribute('aria-disabled', 'true');

    act(() => useEditorStore.setState({ selected: 'Mine' }));
    await waitFor(() => expect(item).not.toHaveAttribute('aria-disabled', 'true'));
    await user.click(item);
    expect(useEditorStore.getState().versionsOpen).toBe(true);
  });

  it('Run History needs a selection', async () => {
    const { user } = renderWithProviders(<StrategyToolbar />);
    act(() => useEditorStore.setState({ selected: null }));
    await user.click(screen.getByRole('button', { name: /Run History/ }));
    expect(await screen.findByText('Please select a strategy first')).toBeInTheDocument();
    expect(useEditorStore.getState().historyOpen).toBe(false);
  });
});

describe('Save as New Strategy', () => {
  it('shows a refused name beside the field; a good one is created and selected', async () => {
    const fetchMock = vi.fn(async () =>
      jsonResponse({ name: 'Alpha', code: '# a', created_at: 5, updated_at: 5, created: true }),
    );
    vi.stubGlobal('fetch', fetchMock);
    useEditorStore.setState({ code: '# a', saveAsOpen: true });
    const { user } = renderWithProviders(<SaveAsModal />);

    await user.click(await screen.findByRole('button', { name: 'OK' }));
    expect(await screen.findByText('Please enter a strategy name')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    await user.type(screen.getByPlaceholderText('Please enter a strategy name'), 'Alpha');
    await user.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(useEditorStore.getState().selected).toBe('Alpha'));
    expect(useEditorStore.getState().saveAsOpen).toBe(false);
    expect(queryClient.getQueryData(strategiesQuery.queryKey)?.map((s) => s.name)).toEqual([
      'Alpha',
      'Mine',
    ]);
  });
});
