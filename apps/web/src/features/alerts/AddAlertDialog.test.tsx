import type { Alert } from '@ct/domain';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import AddAlertDialog from './AddAlertDialog';
import { closeAddAlert, openAddAlert, type AlertDraft } from './dialogStore';

/** A server that saves whatever alert is posted, keeping the bodies it received. */
function stubAlerts() {
  const bodies: Record<string, unknown>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      if (init?.method === 'POST' && url.pathname === '/api/alerts') {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        bodies.push(body);
        const alert: Alert = {
          id: bodies.length,
          symbol_id: String(body.symbol_id),
          kind: body.kind as Alert['kind'],
          condition: body.condition as Alert['condition'],
          level: (body.level as number | undefined) ?? null,
          upper: (body.upper as number | undefined) ?? null,
          lower: (body.lower as number | undefined) ?? null,
          drawing_id: (body.drawing_id as number | undefined) ?? null,
          indicator: (body.indicator as Alert['indicator']) ?? null,
          period: '1m',
          frequency: 'once',
          expires_at: null,
          message: '',
          webhook_url: null,
          status: 'active',
          fired_count: 0,
          last_fired_at: null,
          created_at: 1,
          updated_at: 1,
        };
        return Promise.resolve(jsonResponse(alert, 201));
      }
      return new Promise<Response>(() => {});
    }),
  );
  return bodies;
}

function open(draft: AlertDraft) {
  const view = renderWithProviders(<AddAlertDialog />);
  act(() => openAddAlert(draft));
  return view;
}

async function pick(
  user: ReturnType<typeof renderWithProviders>['user'],
  dialog: HTMLElement,
  name: string,
  option: string,
) {
  await user.click(within(dialog).getByRole('combobox', { name }));
  await user.click(await screen.findByTitle(option));
}

const rsi = { kind: 'rsi' as const, params: { period: 14 }, label: 'RSI 14' };
const sma10 = { kind: 'sma' as const, params: { period: 10 }, label: 'SMA 10' };
const sma20 = { kind: 'sma' as const, params: { period: 20 }, label: 'SMA 20' };

afterEach(() => {
  act(() => closeAddAlert());
  vi.unstubAllGlobals();
});

describe('Add alert dialog', () => {
  it("from an indicator's menu: RSI 14 crossing up 70, at the chart's bar close", async () => {
    const bodies = stubAlerts();
    const { user } = open({
      symbol: 'BTCUSDT',
      price: 50_000,
      tick: 0.1,
      period: '5m',
      indicator: { chosen: rsi, others: [] },
    });
    const dialog = await screen.findByRole('dialog', { name: 'New alert on BTCUSDT' });
    expect(within(dialog).getByText('Indicator: RSI 14')).toBeInTheDocument();
    expect(within(dialog).getByRole('spinbutton', { name: 'Value' })).toHaveValue('70');
    expect(within(dialog).getByText('Judged at the close of each 5m bar.')).toBeInTheDocument();
    await pick(user, dialog, 'Condition', 'Crossing up');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({
      symbol_id: 'BTCUSDT',
      kind: 'indicator',
      condition: 'crossing_up',
      frequency: 'once',
      period: '5m',
      indicator: { line: { kind: 'rsi', params: { period: 14 }, line: 'value' }, threshold: 70 },
    });
  });

  it('an indicator may cross another of the chart’s indicators: SMA 10 crossing SMA 20', async () => {
    const bodies = stubAlerts();
    const { user } = open({
      symbol: 'BTCUSDT',
      price: 50_000,
      tick: 0.1,
      period: '1h',
      indicator: { chosen: sma10, others: [sma20] },
    });
    const dialog = await screen.findByRole('dialog', { name: 'New alert on BTCUSDT' });
    await pick(user, dialog, 'Crossing', 'SMA 20');
    expect(within(dialog).queryByRole('spinbutton', { name: 'Value' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({
      kind: 'indicator',
      condition: 'crossing',
      indicator: {
        line: { kind: 'sma', params: { period: 10 }, line: 'value' },
        other: { kind: 'sma', params: { period: 20 }, line: 'value' },
      },
    });
  });

  it("from a drawing's menu: an alert that follows the trend line", async () => {
    const bodies = stubAlerts();
    const { user } = open({
      symbol: 'BTCUSDT',
      price: 50_000,
      tick: 0.1,
      drawing: { id: 42, kind: 'trend' },
    });
    const dialog = await screen.findByRole('dialog', { name: 'New alert on BTCUSDT' });
    expect(within(dialog).getByText('Drawing: Trend line')).toBeInTheDocument();
    expect(within(dialog).queryByRole('spinbutton', { name: 'Price' })).toBeNull();
    await pick(user, dialog, 'Condition', 'Crossing down');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({
      symbol_id: 'BTCUSDT',
      kind: 'drawing',
      condition: 'crossing_down',
      frequency: 'once',
      drawing_id: 42,
    });
  });

  it('a channel: entering or exiting between two bounds', async () => {
    const bodies = stubAlerts();
    const { user, fill } = open({ symbol: 'BTCUSDT', price: 50_000, tick: 0.1 });
    const dialog = await screen.findByRole('dialog', { name: 'New alert on BTCUSDT' });
    await pick(user, dialog, 'Alert on', 'Channel');
    // the condition follows the kind
    await waitFor(() => expect(within(dialog).getByTitle('Entering channel')).toBeInTheDocument());
    await pick(user, dialog, 'Condition', 'Exiting channel');
    await fill(within(dialog).getByRole('spinbutton', { name: 'Upper bound' }), '50500');
    await fill(within(dialog).getByRole('spinbutton', { name: 'Lower bound' }), '49500');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({
      symbol_id: 'BTCUSDT',
      kind: 'channel',
      condition: 'exiting',
      frequency: 'once',
      upper: 50_500,
      lower: 49_500,
    });
  });
});
