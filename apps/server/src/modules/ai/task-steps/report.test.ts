import type { Performance } from '@ct/domain';
import { describe, expect, it } from 'vitest';
import { summary } from './report.ts';

describe("a task's conversation words its figures as the product shows them", () => {
  it('money with separators, win rate and drawdown as fractions in percent', () => {
    const p = { 交易次数: 3, 胜率: 0.666667, 净利润: 1234.5, max_drawdown: 0.05 } as Performance;
    expect(summary(p)).toBe('3 trades, win rate 66.67%, net profit 1,234.50, max drawdown 5.00%');
  });

  it('says so when there is nothing to word', () => {
    expect(summary(null)).toBe('no trades');
  });
});
