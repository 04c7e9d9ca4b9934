import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser } from '../../test/fixtures';
import { renderApp, storeSession } from '../../test/render';
import { useInstrumentStore } from '../../market/instruments';
import { cachedTemplate } from '../strategy/strategyTemplate';
import { stubMarketFetch } from '../chart/testSupport';

describe('/chart and /d', () => {
  beforeEach(() => {
    useInstrumentStore.setState({ groups: null, symbols: {} });
    storeSession(buildUser());
  });

  it('shows the chart of the instrumentId query once groups and template are loaded', async () => {
    const fetch = stubMarketFetch();
    renderApp('/chart?instrumentId=XAGUSD');
    expect(await screen.findByRole('region', { name: 'XAGUSD chart' })).toBeInTheDocument();
    expect(cachedTemplate()).toContain('def main(data_array)');
    const paths = fetch.mock.calls.map(([url]) => new URL(String(url), 'http://x').pathname);
    expect(paths).toEqual(
      expect.arrayContaining(['/trading/symbol/groups', '/api/strategy/template']),
    );
  });

  it('falls back to BTCUSDT for an unknown or missing instrumentId, also on /d', async () => {
    stubMarketFetch();
    renderApp('/d?instrumentId=NOPE');
    expect(await screen.findByRole('region', { name: 'BTCUSDT chart' })).toBeInTheDocument();
  });

  it('stays on its loader and only logs when the template cannot be loaded', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    stubMarketFetch({ template: null });
    renderApp('/chart');
    expect(screen.getByRole('status')).toHaveTextContent(
      'Loading instruments and strategy template...',
    );
    await vi.waitFor(() =>
      expect(error).toHaveBeenCalledWith('Loading the strategy template failed', expect.anything()),
    );
    expect(useInstrumentStore.getState().groups).not.toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent(
      'Loading instruments and strategy template...',
    );
    expect(screen.queryByRole('region', { name: /chart$/ })).not.toBeInTheDocument();
  });
});
