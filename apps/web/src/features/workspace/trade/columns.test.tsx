import { screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { buildPosition } from '../../trading/testSupport';
import { renderWithProviders } from '../../../test/render';
import type { OrderLogRow } from './types';
import type { PositionRow } from './types';
import {
  buttonColumn,
  labelColumn,
  priceColumn,
  symbolColumn,
  tableScrollWidth,
  textWidth,
  timeColumn,
} from './columns';

describe('trade table columns', () => {
  const columns = [
    symbolColumn<PositionRow>(),
    priceColumn<PositionRow>('price', 'Open Price'),
    timeColumn<PositionRow>('createdAt', 'Open Time'),
    labelColumn<PositionRow>('cmd', 'Status', () => null, 'Partially Filled'),
    buttonColumn<PositionRow>(
      'edit',
      'Edit',
      (row) => row.orderId,
      () => {},
    ),
    buttonColumn<PositionRow>(
      'close',
      'Close',
      (row) => row.orderId,
      () => {},
      true,
    ),
  ];

  it('every column has a width and the table scrolls to their sum', () => {
    for (const column of columns) expect(typeof column.width).toBe('number');
    const sum = columns.reduce((total, column) => total + Number(column.width), 0);
    expect(tableScrollWidth(columns)).toBe(sum);
  });

  it('pins the instrument left and the action buttons right', () => {
    expect(columns.map((column) => column.fixed ?? null)).toEqual([
      'left',
      null,
      null,
      null,
      'right',
      'right',
    ]);
  });

  it('a column is at least as wide as its title and its longest word', () => {
    const label = columns[3]!;
    expect(label.width).toBeGreaterThanOrEqual(textWidth('Partially Filled'));
    const long = priceColumn<PositionRow>('price', 'A very long price title');
    expect(long.width).toBe(textWidth('A very long price title'));
    expect(textWidth('Open Commission')).toBeGreaterThan(textWidth('Currency'));
  });
});

describe('the instrument cell', () => {
  const RUN = '0f8fad5b-d9cb-469f-a165-70867728950e';
  const cell = (row: PositionRow) =>
    (symbolColumn<PositionRow>() as { render: (v: string, row: PositionRow) => ReactNode }).render(
      row.symbol,
      row,
    );

  it('tags a position a live run opened, and only those', () => {
    renderWithProviders(
      <>
        {cell(buildPosition({ orderId: '1', comment: `live:${RUN}` }))}
        {cell(buildPosition({ orderId: '2', comment: 'my own' }))}
      </>,
    );
    expect(screen.getAllByText('BTCUSDT')).toHaveLength(2);
    const tags = screen.getAllByText('Live');
    expect(tags).toHaveLength(1);
    expect(screen.getByLabelText('Sent by live run 0f8fad5b')).toBeInTheDocument();
  });

  it('tags an order log row by the run’s order key', () => {
    const column = symbolColumn<OrderLogRow>() as {
      render: (v: string, row: Partial<OrderLogRow>) => ReactNode;
    };
    renderWithProviders(
      <>
        {column.render('ETHUSDT', { symbol: 'ETHUSDT', clientOrderId: 'lr0f8fad5bd9cb-c31' })}
        {column.render('ETHUSDT', { symbol: 'ETHUSDT', clientOrderId: 'ticket-42' })}
      </>,
    );
    expect(screen.getAllByText('Live')).toHaveLength(1);
    expect(screen.getByLabelText('Sent by live run 0f8fad5b')).toBeInTheDocument();
  });
});
