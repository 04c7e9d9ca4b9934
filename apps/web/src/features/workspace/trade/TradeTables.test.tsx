import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as InstrumentsModule from '../../../market/instruments';
import type * as LiveModule from '../../../realtime/live';
import { resetQuotes } from '../../../realtime/quotes';
import { buildTrader, buildUser } from '../../../test/fixtures';
import { renderWithProviders, storeSession } from '../../../test/render';
import { selectTrader } from '../../auth/store';
import { handleAccountPublication } from '../../trading/accountLive';
import { useTradingDialogs } from '../../trading/dialogs';
import type { SettledOrderRow } from './types';
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

vi.mock('../../../market/instruments', async (importOriginal) => ({
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

/** The settles call of a server holding `rows` (newest first), paged by lastSortId like it. */
function pagedSettles(rows: () => SettledOrderRow[]) {
  return (call: Call) => {
    const all = rows();
    const before = Number(call.query.get('lastSortId') ?? -1);
    const limit = Number(call.query.get('limit') ?? 100);
    const older = before > 0 ? all.filter((row) => row.sortId < before) : all;
    const page = older.slice(0, limit);
    return ok({
      settles: page,
      lastSortId: page.length === limit ? (page.at(-1)?.sortId ?? -1) : -1,
      total: all.length,
    });
  };
}

/** Settlements 1 to n (tradeId = sortId), newest first. */
const history = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    buildSettle({ tradeId: String(n - i), sortId: n - i, orderId: String(1000 + n - i) }),
  );

/** The engine reports on the account channel that a take-profit closed a whole position. */
function publishTakeProfit(orderId: string, tradeId: string, volume: number) {
  handleAccountPublication({
    type: 'position_closed',
    uuid: 'acc-1',
    symbol: 'BTCUSDT',
    at: Date.now(),
    orderId,
    tradeId,
    volume,
    full: true,
    closeReason: 1,
  });
}

/** The Trade ID cells of the settlements on screen (the last column). */
const tradeIds = () =>
  rowsOf('Orders').map((row) => within(row).getAllByRole('cell').at(-1)?.textContent);

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
    useTradingDialogs.setState({ closePosition: null, cancelPending: null, editOrder: null });
    positions = [buildPosition()];
    calls = stubTradingFetch({
      '/trading/order/position': () => ok({ orders: positions }),
      '/trading/order/settles': ok({ settles: [buildSettle()], lastSortId: -1, total: 1 }),
      '/trading/order/pending': ok({ pendings: [buildPending()] }),
      '/trading/order/logs': ok({ orders: [LOG], lastSortId: -1, total: 1 }),
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
    // what a trader watches first: open and market price, floating P&L
    expect(cells).toEqual([
      'BTCUSDT',
      'Buy',
      '2',
      '45000.0',
      '45100.0',
      '+150.00',
      '—',
      '—',
      '0.5',
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

  it('positions: a totals row adds the open lots by side and the live floating P&L', async () => {
    positions = [
      buildPosition(), // buy 2, 0.5 closed, at 45,000: +150 at the bid 45,100
      buildPosition({ orderId: '12', cmd: 2, volume: 0.3, settledVol: 0, floatProfit: -30.15 }),
    ];
    renderWithProviders(<PositionsTable />);
    const totals = await waitFor(() => {
      const row = document.querySelector<HTMLElement>('.trade-totals');
      expect(row).not.toBeNull();
      return row!;
    });
    expect(within(totals).getByText('Total')).toBeInTheDocument();
    expect(within(totals).getByLabelText('Buy 1.5 · Sell 0.3')).toBeInTheDocument();
    // until a live quote: the rows' own P&L, 150 − 30.15
    expect(within(totals).getByText('+119.85 USD')).toBeInTheDocument();
    // at 45,210 / 45,210.5: the buy 1.5 × 210 = 315, the sell 0.3 × (45,000 − 45,210.5)
    act(() => setQuote('BTCUSDT', 45_210, 45_210.5));
    expect(await within(totals).findByText('+251.85 USD')).toBeInTheDocument();
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
    act(() => publishTakeProfit('11', '40', 1.5));
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
      expect(within(rowsOf('Positions')[0]!).getAllByRole('cell')[8]?.textContent).toBe('1'),
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

  it('narrow: a two-line card per position; a double-click opens the Edit/Close menu', async () => {
    const { user } = withDialogs(<PositionsTable narrow />);
    await screen.findByText('+150.00');
    expect(screen.getByText('Double-click row to operate')).toBeInTheDocument();
    // no columns to scroll: instrument, side, volume, prices, P&L and id on one card
    expect(screen.queryAllByRole('columnheader')).toHaveLength(0);
    const card = rowsOf('Positions')[0]!;
    expect(within(card).getAllByRole('cell')).toHaveLength(1);
    for (const text of ['BTCUSDT', 'Buy', '2', '45000.0', '45100.0', '+150.00', '11']) {
      expect(within(card).getByText(text, { exact: true })).toBeInTheDocument();
    }
    expect(within(card).getByTitle('Floating P&L')).toHaveTextContent('+150.00');
    expect(within(card).queryByRole('button')).not.toBeInTheDocument();
    // the totals stay under the cards: the label, the open volumes and the floating P&L
    const totals = document.querySelector<HTMLElement>('.trade-totals-card');
    expect(totals).toHaveTextContent(/^Total ?Buy 1.5 ?Sell 0 ?\+150\.00 USD$/);
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

  it('pending on a phone: a card with the order and its time in force; Cancel from the menu', async () => {
    const { user } = withDialogs(<PendingOrdersTable narrow />);
    const card = await waitFor(() => {
      const [first] = rowsOf('Pending');
      expect(first).toHaveTextContent('44000.0');
      return first!;
    });
    expect(screen.queryAllByRole('columnheader')).toHaveLength(0);
    expect(within(card).getByTitle('Time in Force')).toHaveTextContent('GTC');
    expect(within(card).getByText('21', { exact: true })).toBeInTheDocument();
    await user.dblClick(card);
    const menu = await screen.findByRole('menu');
    await user.click(within(menu).getByRole('menuitem', { name: 'Cancel' }));
    expect(await screen.findByRole('dialog', { name: 'Cancel Pending Order' })).toBeInTheDocument();
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

  it('orders: the close reason says whether the trader, the take-profit, the stop-loss or a live run’s strategy closed it', async () => {
    stubTradingFetch({
      '/trading/order/settles': ok({
        settles: [
          buildSettle({
            tradeId: '34',
            sortId: 34,
            closeReason: 4,
            comment: 'live:0f8fad5b-d9cb-469f-a165-70867728950e',
          }),
          buildSettle({ tradeId: '33', sortId: 33, closeReason: 2 }),
          buildSettle({ tradeId: '32', sortId: 32, closeReason: 1, isSettled: 2 }),
          buildSettle({ tradeId: '31', sortId: 31, closeReason: 0 }),
        ],
        lastSortId: -1,
        total: 4,
      }),
    });
    renderWithProviders(<SettledOrdersTable />);
    await waitFor(() => expect(rowsOf('Orders')).toHaveLength(4));
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    const column = headers.indexOf('Close Reason');
    // after the profit, so the columns before it keep their places
    expect(headers[column - 1]).toBe('Profit');
    expect(
      rowsOf('Orders').map((row) => within(row).getAllByRole('cell')[column]?.textContent),
    ).toEqual(['Strategy', 'Stop loss', 'Take profit', 'Manual']);
    // the strategy's close is in a row that names its run
    expect(within(rowsOf('Orders')[0]!).getByText('Live')).toBeInTheDocument();
  });

  it('orders: a settlement of a live run’s position carries the Live tag, the trader’s own none', async () => {
    const run = '0f8fad5b-d9cb-469f-a165-70867728950e';
    stubTradingFetch({
      '/trading/order/settles': ok({
        settles: [
          buildSettle({ tradeId: '33', sortId: 33, comment: `live:${run}` }),
          buildSettle({ tradeId: '32', sortId: 32, comment: 'my hedge' }),
        ],
        lastSortId: -1,
        total: 2,
      }),
    });
    renderWithProviders(<SettledOrdersTable />);
    await waitFor(() => expect(rowsOf('Orders')).toHaveLength(2));
    const [live, own] = rowsOf('Orders');
    expect(within(live!).getByLabelText(/^Sent by live run /)).toHaveTextContent('Live');
    expect(within(own!).queryByLabelText(/^Sent by live run /)).toBeNull();
  });

  it('orders: pages of 50 with the server’s total; a page asks the server for the rows it lacks', async () => {
    const rows = history(120);
    calls = stubTradingFetch({ '/trading/order/settles': pagedSettles(() => rows) });
    const { user } = renderWithProviders(<SettledOrdersTable />);
    await waitFor(() => expect(rowsOf('Orders')).toHaveLength(50));
    expect(screen.getByText('1–50 of 120')).toBeInTheDocument();
    expect(tradeIds()[0]).toBe('120');
    const first = calls.filter((c) => c.path === '/trading/order/settles');
    expect(first).toHaveLength(1);
    expect(Object.fromEntries(first[0]!.query)).toMatchObject({ lastSortId: '-1', limit: '50' });

    // the last page: the 70 rows after the first 50 come in one request from the cursor
    await user.click(screen.getByTitle('3'));
    await waitFor(() => expect(rowsOf('Orders')).toHaveLength(20));
    expect(screen.getByText('101–120 of 120')).toBeInTheDocument();
    expect([tradeIds()[0], tradeIds().at(-1)]).toEqual(['20', '1']);
    const more = calls.filter((c) => c.path === '/trading/order/settles').at(-1);
    expect(Object.fromEntries(more!.query)).toMatchObject({ lastSortId: '71', limit: '100' });

    // back to page 2: already loaded, nothing is asked
    const asked = calls.length;
    await user.click(screen.getByTitle('2'));
    await waitFor(() => expect(tradeIds()[0]).toBe('70'));
    expect(calls).toHaveLength(asked);
  });

  it('orders: a live refresh after a close keeps the page and reloads the rows up to it', async () => {
    let rows = history(120);
    calls = stubTradingFetch({ '/trading/order/settles': pagedSettles(() => rows) });
    const { user } = renderWithProviders(<SettledOrdersTable />);
    await waitFor(() => expect(rowsOf('Orders')).toHaveLength(50));
    await user.click(screen.getByTitle('2'));
    await waitFor(() => expect(tradeIds()[0]).toBe('70'));
    // a take-profit closes another position: its settlement is the newest
    rows = [buildSettle({ tradeId: '121', sortId: 121, closeReason: 1, isSettled: 2 }), ...rows];
    act(() => publishTakeProfit('7', '121', 1));
    expect(await screen.findByText('51–100 of 121')).toBeInTheDocument();
    // still page 2, one row further down; the new row leads page 1
    expect(tradeIds()[0]).toBe('71');
    const refresh = calls.filter((c) => c.path === '/trading/order/settles').at(-1);
    expect(Object.fromEntries(refresh!.query)).toMatchObject({ lastSortId: '-1', limit: '100' });
    await user.click(screen.getByTitle('1'));
    expect(tradeIds()[0]).toBe('121');
    expect(rowsOf('Orders')[0]).toHaveTextContent('Take profit');
  });

  it('orders on a phone: the pages follow one another with Load more', async () => {
    const rows = history(70);
    stubTradingFetch({ '/trading/order/settles': pagedSettles(() => rows) });
    const { user } = renderWithProviders(<SettledOrdersTable narrow />);
    await waitFor(() => expect(rowsOf('Orders')).toHaveLength(50));
    // a card per settlement, no columns: what closed, its prices, status and profit
    expect(screen.queryAllByRole('columnheader')).toHaveLength(0);
    const card = rowsOf('Orders')[0]!;
    expect(within(card).getAllByRole('cell')).toHaveLength(1);
    for (const title of ['Profit', 'Settlement', 'Close Reason', 'Open Price → Close Price']) {
      expect(within(card).getByTitle(title)).toBeInTheDocument();
    }
    expect(within(card).getByTitle('Close Reason')).toHaveTextContent('Manual');
    expect(within(card).getByTitle('Profit')).toHaveTextContent('+250.00');
    expect(screen.getByText('50 of 70')).toBeInTheDocument();
    expect(screen.queryByTitle('2')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rowsOf('Orders')).toHaveLength(70));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('orders: an account switch starts again at page 1 with that account’s rows', async () => {
    calls = stubTradingFetch({
      '/trading/order/settles': (call: Call) =>
        pagedSettles(() => history(call.query.get('uuid') === 'acc-2' ? 3 : 120))(call),
    });
    const { user } = renderWithProviders(<SettledOrdersTable />);
    await waitFor(() => expect(rowsOf('Orders')).toHaveLength(50));
    await user.click(screen.getByTitle('3'));
    await waitFor(() => expect(rowsOf('Orders')).toHaveLength(20));
    act(() => selectTrader(buildTrader({ uuid: 'acc-2', token: 'tok-2' })));
    await waitFor(() => expect(rowsOf('Orders')).toHaveLength(3));
    const last = calls.filter((c) => c.path === '/trading/order/settles').at(-1);
    expect(Object.fromEntries(last!.query)).toMatchObject({
      uuid: 'acc-2',
      lastSortId: '-1',
      limit: '50',
    });
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

  it.each([false, true])(
    'order logs (narrow %s): a TP/SL change and a pending order’s change are Modify rows with their levels',
    async (narrow) => {
      const modifyTpsl = { ...LOG, sortId: 7, cmd: 1, actionType: 3, price: 45_000, tp: 45_600 };
      const modifyOrder = {
        ...LOG,
        sortId: 6,
        cmd: 1,
        actionType: 3,
        orderType: 2,
        price: 44_000,
        sl: 43_500,
        orderId: null,
        pId: '21',
      };
      stubTradingFetch({
        '/trading/order/logs': ok({
          orders: [modifyTpsl, modifyOrder, LOG],
          lastSortId: -1,
          total: 3,
        }),
      });
      renderWithProviders(<OrderLogsTable narrow={narrow} />);
      await waitFor(() => expect(rowsOf('Order Logs')).toHaveLength(3));
      const [tpsl, order, close] = rowsOf('Order Logs');
      expect(within(tpsl!).getByText('Modify TP/SL')).toBeInTheDocument();
      expect(within(tpsl!).getByText('45600.0')).toBeInTheDocument();
      expect(tpsl).toHaveTextContent('Filled');
      expect(within(order!).getByText('Modify Order')).toBeInTheDocument();
      expect(within(order!).getByText('43500.0')).toBeInTheDocument();
      expect(within(close!).getByText('Close')).toBeInTheDocument();
    },
  );

  it('order logs: a TP close and an expiry say so; a second page comes from the cursor', async () => {
    const logs = Array.from({ length: 60 }, (_, i) => ({ ...LOG, sortId: 60 - i }));
    logs[0] = { ...LOG, sortId: 60, message: 'Take profit' };
    logs[1] = {
      ...LOG,
      sortId: 59,
      actionType: 1,
      orderType: 2,
      orderStatus: 4,
      message: 'Expired at the end of the trading day (GFD)',
    };
    calls = stubTradingFetch({
      '/trading/order/logs': (call: Call) => {
        const before = Number(call.query.get('lastSortId'));
        const limit = Number(call.query.get('limit'));
        const page = logs.filter((l) => before < 0 || l.sortId < before).slice(0, limit);
        return ok({
          orders: page,
          lastSortId: page.length === limit ? page.at(-1)!.sortId : -1,
          total: logs.length,
        });
      },
    });
    const { user } = renderWithProviders(<OrderLogsTable />);
    await waitFor(() => expect(rowsOf('Order Logs')).toHaveLength(50));
    const [tp, expired] = rowsOf('Order Logs');
    expect(within(tp!).getByText('Take profit')).toBeInTheDocument();
    expect(expired).toHaveTextContent('Canceled');
    expect(
      within(expired!).getByText('Expired at the end of the trading day (GFD)'),
    ).toBeInTheDocument();
    await user.click(screen.getByTitle('Next Page'));
    await waitFor(() => expect(rowsOf('Order Logs')).toHaveLength(10));
    expect(screen.getByText('51–60 of 60')).toBeInTheDocument();
    const last = calls.filter((c) => c.path === '/trading/order/logs').at(-1);
    expect(last?.query.get('lastSortId')).toBe('11');
  });
});
