import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as InstrumentsModule from '../../chart/instruments';
import type * as LiveModule from '../../../realtime/live';
import { resetQuotes } from '../../../realtime/quotes';
import { buildTrader, buildUser } from '../../../test/fixtures';
import { renderWithProviders, storeSession } from '../../../test/render';
import { selectTrader } from '../../auth/store';
import { handleAccountPublication } from '../../trading/accountLive';
import { useTradingDialogs } from '../../trading/dialogs';
import { resetTradeData } from '../../trading/store';
import {
  buildPending,
  buildPosition,
  buildSettle,
  helperOk,
  knowBtc,
  ok,
  setQuote,
  stubTradingFetch,
  type Call,
} from '../../trading/testSupport';
import { TradingDialogs } from '../../trading/TradingDialogs';
import {
  OrderLogsTable,
  PendingOrdersTable,
  PositionsTable,
  SettledOrdersTable,
} from './TradeTables';

vi.mock('../../chart/instruments', async (importOriginal) => ({
  ...(await importOriginal<typeof InstrumentsModule>()),
  useInstrumentCatalogue: () => {},
}));
vi.mock('../../../realtime/live', async (importOriginal) => ({
  ...(await importOriginal<typeof LiveModule>()),
  watchSymbol: () => () => {},
}));

const LOG = {
  sortId: 5,
  symbol: 'BTCUSDT',
  cmd: 2,
  actionType: 2,
  orderType: 1,
  volume: 0.5,
  price: 45_500,
  marketPrice: 45_500,
  orderStatus: 2,
  createdAt: 1_700_000_600,
  transactTime: 1_700_000_600,
  commissionFee: 0.25,
  currency: 'USD',
  tp: 0,
  sl: 0,
  orderId: '11',
  pId: null,
  message: '',
  clientOrderId: null,
};

function withDialogs(table: React.ReactElement) {
  return renderWithProviders(
    <>
      {table}
      <TradingDialogs />
    </>,
  );
}

// The sticky header is a table of its own: the data rows are the body table's.
const rowsOf = (name: string) =>
  screen
    .getAllByRole('table', { name })
    .flatMap((table) => within(table).queryAllByRole('row'))
    .filter((row) => row.classList.contains('ant-table-row'));

describe('trade tables', () => {
  let positions = [buildPosition()];
  let calls: Call[] = [];
  beforeEach(() => {
    storeSession(buildUser());
    knowBtc();
    resetQuotes();
    resetTradeData();
    useTradingDialogs.setState({ closePosition: null, cancelPending: null, editOrder: null });
    positions = [buildPosition()];
    calls = stubTradingFetch({
      '/trading/order/position': () => ok({ orders: positions }),
      '/trading/order/settles': ok({ settles: [buildSettle()], lastSortId: -1 }),
      '/trading/order/pending': ok({ pendings: [buildPending()] }),
      '/trading/order/logs': ok({ orders: [LOG], lastSortId: -1 }),
      '/trading/order/close': (call: Call) => {
        const volume = (call.body as { volume: number }).volume;
        positions = [buildPosition({ settledVol: 0.5 + volume })];
        return helperOk(
          { order: positions[0], settle: buildSettle({ settleVolume: volume }) },
          'Position closed successfully',
        );
      },
      '/trading/order/pending/del': helperOk(
        { pending: buildPending({ status: 'canceled' }) },
        'Pending order canceled successfully',
      ),
    });
  });
  afterEach(() => {
    resetTradeData();
  });

  it('positions: loads the current account’s rows formatted per the spec', async () => {
    renderWithProviders(<PositionsTable />);
    const [row] = await waitFor(() => {
      const rows = rowsOf('Positions');
      expect(rows).toHaveLength(1);
      return rows;
    });
    const cells = within(row!)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells).toEqual([
      'BTCUSDT',
      'Buy',
      '2',
      '0.5',
      '45000.0',
      '45100.0',
      '—',
      '—',
      '+150.00',
      '0.00',
      '0.00',
      'USD',
      expect.stringMatching(/^2023-11-1\d \d\d:\d\d:\d\d$/),
      '11',
      'Edit',
      'Close',
    ]);
    const call = calls.find((c) => c.path === '/trading/order/position');
    expect(Object.fromEntries(call!.query)).toMatchObject({
      channel: '1',
      device: '1',
      uuid: 'acc-1',
      token: 'tok-1',
    });
  });

  it('positions: market price and unrealized P&L follow the live quote', async () => {
    renderWithProviders(<PositionsTable />);
    await screen.findByText('+150.00');
    // a buy closes at the bid: (45210 − 45000) × 1.5 open lots
    act(() => setQuote('BTCUSDT', 45_210, 45_210.5));
    expect(await screen.findByText('+315.00')).toBeInTheDocument();
    expect(screen.getByText('45210.0')).toBeInTheDocument();
    act(() => setQuote('BTCUSDT', 44_900, 44_900.5));
    expect(await screen.findByText('-150.00')).toHaveClass('pnl-down');
  });

  it('positions: empty shows the Chinese text', async () => {
    positions = [];
    renderWithProviders(<PositionsTable />);
    expect(await screen.findByText('暂无持仓')).toBeInTheDocument();
  });

  it('reloads on an account change, with the other account', async () => {
    renderWithProviders(<PositionsTable />);
    await screen.findByText('+150.00');
    positions = [buildPosition({ orderId: '99', uuid: 'acc-2', symbol: 'ETHUSDT' })];
    act(() => selectTrader(buildTrader({ uuid: 'acc-2', token: 'tok-2' })));
    expect(await screen.findByText('ETHUSDT')).toBeInTheDocument();
    expect(screen.queryByText('BTCUSDT')).not.toBeInTheDocument();
    const last = calls.filter((c) => c.path === '/trading/order/position').at(-1);
    expect(last?.query.get('uuid')).toBe('acc-2');
  });

  it('reloads when the engine reports a change on the account channel', async () => {
    renderWithProviders(<PositionsTable />);
    await screen.findByText('+150.00');
    positions = [];
    act(() =>
      handleAccountPublication({
        type: 'position_closed',
        uuid: 'acc-1',
        symbol: 'BTCUSDT',
        at: Date.now(),
        orderId: '11',
        tradeId: '40',
        volume: 1.5,
        full: true,
        closeReason: 1,
      }),
    );
    expect(await screen.findByText('暂无持仓')).toBeInTheDocument();
  });

  it('wide: Close opens the Close Position modal at the available volume; a partial close', async () => {
    const { user, fill } = withDialogs(<PositionsTable />);
    await screen.findByText('+150.00');
    await user.click(screen.getByRole('button', { name: 'Close BTCUSDT 11' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close Position' });
    const quantity = within(dialog).getByLabelText('Close quantity');
    expect(quantity).toHaveValue('1.50');
    expect(within(dialog).getByText('Full close')).toBeInTheDocument();
    await fill(quantity, '2');
    expect(
      within(dialog).getByText('Quantity cannot exceed 1.5 and must be a multiple of 0.01'),
    ).toBeInTheDocument();
    await fill(quantity, '0.5');
    expect(within(dialog).getByText('Partial close')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close Position' }));
    expect(await screen.findByText('Position closed successfully')).toBeInTheDocument();
    const close = calls.find((c) => c.path === '/trading/order/close');
    expect(close?.body).toMatchObject({
      orderId: '11',
      volume: 0.5,
      closeTypeYT: 0,
      uuid: 'acc-1',
      token: 'tok-1',
      channel: 1,
      device: 1,
    });
    // the table reloads: settled 1 of 2
    await waitFor(() =>
      expect(within(rowsOf('Positions')[0]!).getAllByRole('cell')[3]?.textContent).toBe('1'),
    );
  });

  it('wide: Edit starts the edit-order action for the row', async () => {
    const { user } = withDialogs(<PositionsTable />);
    await screen.findByText('+150.00');
    await user.click(screen.getByRole('button', { name: 'Edit BTCUSDT 11' }));
    expect(useTradingDialogs.getState().editOrder).toMatchObject({
      orderId: '11',
      side: 'buy',
      availableVolume: 1.5,
      totalVolume: 2,
      openPrice: 45_000,
      tick: 0.1,
    });
  });

  it('narrow: no Edit and Close columns; a double-click opens the Edit/Close menu', async () => {
    const { user } = withDialogs(<PositionsTable narrow />);
    await screen.findByText('+150.00');
    expect(screen.getByText('Double-click row to operate')).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Close' })).not.toBeInTheDocument();
    await user.dblClick(rowsOf('Positions')[0]!);
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Edit', 'Close']);
    await user.click(within(menu).getByRole('menuitem', { name: 'Close' }));
    expect(await screen.findByRole('dialog', { name: 'Close Position' })).toBeInTheDocument();
  });

  it('pending: Cancel asks for confirmation, then cancels', async () => {
    const { user } = withDialogs(<PendingOrdersTable />);
    const row = await waitFor(() => {
      const [first] = rowsOf('Pending');
      expect(first).toHaveTextContent('44000.0');
      return first!;
    });
    expect(row).toHaveTextContent('GTC');
    await user.click(within(row).getByRole('button', { name: 'Cancel BTCUSDT 21' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Pending Order' });
    expect(dialog).toHaveTextContent('Are you sure you want to cancel this pending order?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel Order' }));
    expect(await screen.findByText('Pending order canceled successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/trading/order/pending/del')?.body).toMatchObject({
      pId: '21',
      uuid: 'acc-1',
      token: 'tok-1',
    });
    const list = calls.find((c) => c.path === '/trading/order/pending');
    expect(list?.query.get('_t')).toMatch(/^\d+$/);
  });

  it('orders: settlements with status, yyyy-mm-dd settle date and signed profit', async () => {
    renderWithProviders(<SettledOrdersTable />);
    const row = await waitFor(() => {
      const [first] = rowsOf('Orders');
      expect(first).toBeDefined();
      return first!;
    });
    for (const text of ['Partial', '2024-01-15', '+250.00', '45500.0', 'Sell']) {
      expect(within(row).getByText(text)).toBeInTheDocument();
    }
    const call = calls.find((c) => c.path === '/trading/order/settles');
    expect(call?.query.get('lastSortId')).toBe('-1');
  });

  it('order logs: side, action and status codes as words', async () => {
    renderWithProviders(<OrderLogsTable />);
    const row = await waitFor(() => {
      const [first] = rowsOf('Order Logs');
      expect(first).toBeDefined();
      return first!;
    });
    for (const text of ['Sell', 'Close', 'Filled', '0.25']) {
      expect(within(row).getByText(text)).toBeInTheDocument();
    }
  });
});
