import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { json, stubServer } from '../aiTasks/testSupport';
import type { StrategyResultSummary } from './api';
import { putSavedResult } from './queries';
import { RunHistoryModal } from './RunHistoryModal';

function buildSummary(overrides: Partial<StrategyResultSummary> = {}): StrategyResultSummary {
  return {
    id: 2,
    strategy_name: 'Cross',
    symbol_id: 'GOOG',
    deal_count: 3,
    performance: { 净利润: 12.5, 胜率: 0.5, 交易次数: 3 },
    error: null,
    run_id: '0f8fad5b-d9cb-469f-a165-70867728950e',
    has_logs: true,
    size_bytes: 2048,
    automatic: true,
    created_at: 1_700_000_100,
    ...overrides,
  };
}

const rows = () => within(screen.getByRole('table', { name: 'Strategy Run History' }));

describe('Strategy Run History', () => {
  it('lists the runs kept by themselves and the saved results, marked Auto and Saved', async () => {
    const server = stubServer({
      'GET /api/strategy-results/Cross': () =>
        json({
          results: [
            buildSummary(),
            buildSummary({ id: 1, automatic: false, created_at: 1_700_000_000, run_id: null }),
          ],
          total: 2,
        }),
    });
    renderWithProviders(
      <RunHistoryModal
        strategy="Cross"
        onClose={() => undefined}
        onViewDetails={() => Promise.resolve()}
        onShowOnChart={() => Promise.resolve()}
      />,
    );
    await waitFor(() => expect(rows().getAllByRole('row')).toHaveLength(3));
    const headers = rows()
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual([
      'Run Time',
      'Symbol',
      'Total Profit/Loss',
      'Win Rate',
      'Trade Count',
      'Actions',
    ]);
    const [auto, saved] = rows().getAllByRole('row').slice(1);
    expect(within(auto!).getByText('Auto')).toHaveAttribute(
      'title',
      'Kept automatically: the newest 50 runs of this strategy are kept',
    );
    expect(within(saved!).getByText('Saved')).toBeInTheDocument();
    expect(within(auto!).queryByText('Saved')).toBeNull();
    expect(server.calls.at(-1)!.url.searchParams.get('limit')).toBe('10');
  });

  it('Save Results of a run kept by itself marks its row Saved in place', async () => {
    stubServer({
      'GET /api/strategy-results/Cross': () => json({ results: [buildSummary()], total: 1 }),
    });
    renderWithProviders(
      <RunHistoryModal
        strategy="Cross"
        onClose={() => undefined}
        onViewDetails={() => Promise.resolve()}
        onShowOnChart={() => Promise.resolve()}
      />,
    );
    await rows().findByText('Auto');
    putSavedResult(buildSummary({ automatic: false }));
    await rows().findByText('Saved');
    expect(rows().getAllByRole('row')).toHaveLength(2);
  });
});
