import { describe, expect, it } from 'vitest';
import {
  closeReasonLabel,
  formatSettleDate,
  orderActionLabel,
  orderStatusLabel,
  settlementLabel,
  sideLabel,
} from './trading-labels.ts';

describe('trading labels', () => {
  it('maps sides and actions', () => {
    expect([sideLabel(1), sideLabel(2), sideLabel(0)]).toEqual(['Buy', 'Sell', 'Unknown']);
    expect([orderActionLabel(1), orderActionLabel(2), orderActionLabel(4)]).toEqual([
      'Open',
      'Close',
      'Unknown',
    ]);
  });

  it('names our Modify action (3) by what it changed: a position’s TP/SL or a pending order', () => {
    expect(orderActionLabel(3)).toBe('Modify TP/SL');
    expect(orderActionLabel(3, false)).toBe('Modify TP/SL');
    expect(orderActionLabel(3, true)).toBe('Modify Order');
    // the flag changes nothing of the spec's own actions
    expect([orderActionLabel(1, true), orderActionLabel(2, true)]).toEqual(['Open', 'Close']);
  });

  it('maps order log statuses 0 to 4 and anything else to Unknown', () => {
    expect([0, 1, 2, 3, 4, 5, -1, 1.5].map(orderStatusLabel)).toEqual([
      'Pending',
      'Rejected',
      'Filled',
      'Partially Filled',
      'Canceled',
      'Unknown',
      'Unknown',
      'Unknown',
    ]);
  });

  it('maps close reasons 0 to 4 and anything else to Unknown', () => {
    expect([0, 1, 2, 3, 4, 5, -1, 0.5].map(closeReasonLabel)).toEqual([
      'Manual',
      'Take profit',
      'Stop loss',
      'Stop out',
      'Strategy',
      'Unknown',
      'Unknown',
      'Unknown',
    ]);
  });

  it('maps settlement and formats 8-digit settle dates', () => {
    expect([settlementLabel(2), settlementLabel(1), settlementLabel(0)]).toEqual([
      'Full',
      'Partial',
      'Unknown',
    ]);
    expect(formatSettleDate(20240131)).toBe('2024-01-31');
    expect(formatSettleDate('20240131')).toBe('2024-01-31');
    expect(formatSettleDate('2024-01-31')).toBe('2024-01-31');
  });
});
