import { describe, expect, it } from 'vitest';
import { overfittingVerdict, type VerdictInput } from './verdict.ts';

const strong: VerdictInput = {
  pbo: 0.1,
  deflatedSharpe: 0.97,
  efficiency: 0.8,
  walkForward: true,
  trials: 120,
};

describe('overfittingVerdict', () => {
  it('holds out of sample only when all three measures are strong', () => {
    const result = overfittingVerdict(strong);
    expect(result.verdict).toBe('holds out of sample');
    expect(result.reasons).toEqual([
      '120 parameter combinations ran and the best one was chosen; the more you try, the more likely the best looks good by luck.',
      'In only 10% of the ways to split the history in two did the combination that was best on one half fall below the typical one on the other half.',
      'Even allowing for the 120 combinations tried, the best Sharpe ratio is very unlikely to be luck (deflated Sharpe ratio 0.97).',
      'In the walk-forward test the chosen parameters kept 80% of their in-sample yearly return on the bars that followed.',
    ]);
  });

  it.each([
    [{ pbo: 0.6 }, 'its lead is mostly luck'],
    [{ deflatedSharpe: 0.3 }, 'more likely luck than skill (deflated Sharpe ratio 0.30)'],
    [{ efficiency: -0.4 }, 'lost money on the bars that followed'],
    [{ efficiency: 0 }, 'lost money on the bars that followed'],
  ])('is likely overfit with %j', (change, reason) => {
    const result = overfittingVerdict({ ...strong, ...change });
    expect(result.verdict).toBe('likely overfit');
    expect(result.reasons.join(' ')).toContain(reason);
  });

  it.each([
    [{ pbo: 0.3 }, 'not clear either way'],
    [
      { deflatedSharpe: 0.8 },
      'there is a 80% chance that the best Sharpe ratio reflects a real edge',
    ],
    [
      { efficiency: 0.3 },
      'kept 30% of their in-sample yearly return on the bars that followed; more than 50% is wanted',
    ],
    [{ efficiency: null, walkForward: false }, 'No walk-forward test was run'],
    [{ efficiency: null }, 'made no money in sample'],
    [{ pbo: null }, 'too few trials or bars'],
    [{ deflatedSharpe: null }, 'could not be tested against luck'],
  ])('is inconclusive with %j', (change, reason) => {
    const result = overfittingVerdict({ ...strong, ...change });
    expect(result.verdict).toBe('inconclusive');
    expect(result.reasons.join(' ')).toContain(reason);
  });

  it('lets overfitting win over a strong measure', () => {
    expect(overfittingVerdict({ ...strong, pbo: 0.7, deflatedSharpe: 0.99 }).verdict).toBe(
      'likely overfit',
    );
  });

  it('says so when only one combination ran', () => {
    expect(overfittingVerdict({ ...strong, trials: 1 }).reasons[0]).toContain(
      'Only 1 parameter combination ran',
    );
  });
});
