import { describe, expect, it } from 'vitest';
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
