import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetQueryClient } from '../../../shared/queryClient';
import { jsonResponse } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { IndicatorsDialog } from './IndicatorsDialog';
import { resetIndicatorSaves } from './queries';

/** The indicator API of one user: a list per chart key, stored as sent. */
function server(initial: Record<string, unknown[]> = {}) {
  const stored: Record<string, unknown[]> = { ...initial };
  const puts: { key: string; body: unknown[] }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const key = decodeURIComponent(String(url).split('/').at(-1)!);
      if (init.method === 'PUT') {
        const body = JSON.parse(String(init.body)).indicators as unknown[];
        puts.push({ key, body });
        stored[key] = body;
      }
      return jsonResponse({ indicators: stored[key] ?? [] });
    }),
  );
  return { stored, puts };
}

beforeEach(() => {
  resetQueryClient();
  resetIndicatorSaves();
});
afterEach(() => vi.unstubAllGlobals());

describe('IndicatorsDialog', () => {
  it('adds SMA 20 and RSI 14 to this chart only, saved on the server', async () => {
    const api = server();
    const { user } = renderWithProviders(<IndicatorsDialog chartKey="1" open onClose={() => {}} />);
    await user.click(await screen.findByRole('button', { name: 'Add Moving Average (SMA)' }));
    await user.click(screen.getByRole('button', { name: 'Add Relative Strength Index (RSI)' }));
    const list = screen.getByRole('region', { name: 'On this chart' });
    expect(within(list).getByText('SMA 20')).toBeInTheDocument();
    expect(within(list).getByText('RSI 14')).toBeInTheDocument();
    await waitFor(() => expect(api.stored['1']).toHaveLength(2));
    expect(api.stored['1']).toMatchObject([
      { kind: 'sma', params: { period: 20 }, visible: true },
      { kind: 'rsi', params: { period: 14 }, visible: true },
    ]);
    expect(api.puts.every((p) => p.key === '1')).toBe(true);
  });

  it('edits a parameter, hides and removes an indicator', async () => {
    const api = server({
      '0': [{ id: 'a1', kind: 'sma', params: { period: 20 }, visible: true, color: '#2962ff' }],
    });
    const { user } = renderWithProviders(<IndicatorsDialog chartKey="0" open onClose={() => {}} />);
    const period = await screen.findByRole('spinbutton', { name: 'Period of SMA 20' });
    await user.clear(period);
    await user.type(period, '50');
    await waitFor(() => expect(api.stored['0']).toMatchObject([{ params: { period: 50 } }]));
    await user.click(screen.getByRole('button', { name: 'Hide SMA 50' }));
    await waitFor(() => expect(api.stored['0']).toMatchObject([{ visible: false }]));
    expect(screen.getByRole('button', { name: 'Show SMA 50' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await user.click(screen.getByRole('button', { name: 'Remove SMA 50' }));
    await waitFor(() => expect(api.stored['0']).toEqual([]));
    expect(screen.getByText(/No indicators on this chart yet/)).toBeInTheDocument();
  });

  it('volume is always listed: hiding it saves a hidden volume entry, it cannot be removed', async () => {
    const api = server();
    const { user } = renderWithProviders(<IndicatorsDialog chartKey="2" open onClose={() => {}} />);
    await user.click(await screen.findByRole('button', { name: 'Hide Vol' }));
    await waitFor(() =>
      expect(api.stored['2']).toEqual([
        { id: 'volume', kind: 'volume', params: {}, visible: false },
      ]),
    );
    expect(screen.queryByRole('button', { name: 'Remove Vol' })).not.toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: 'Add Volume' }),
      'one volume per chart',
    ).not.toBeInTheDocument();
  });

  it('offers no more additions at 10 indicators', async () => {
    server({
      '3': Array.from({ length: 10 }, (_, i) => ({
        id: `s${i}`,
        kind: 'sma',
        params: { period: 10 + i },
        visible: true,
      })),
    });
    renderWithProviders(<IndicatorsDialog chartKey="3" open onClose={() => {}} />);
    expect(await screen.findByText('At most 10 indicators on one chart')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add MACD' })).toBeDisabled();
  });
});
