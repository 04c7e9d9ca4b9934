import { describe, expect, it } from 'vitest';
import { createRng } from '../market/prng.ts';
import {
  deflatedSharpe,
  deflatedSharpeFromReturns,
  expectedMaxSharpe,
  probabilisticSharpe,
  probabilityOfBacktestOverfitting,
  returnMoments,
  type PboResult,
} from './overfitting.ts';

function pbo(trials: number[][], partitions?: number): PboResult {
  const outcome = probabilityOfBacktestOverfitting(
    trials,
    partitions === undefined ? {} : { partitions },
  );
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.result;
}

function noise(
  seed: number,
  trials: number,
  periods: number,
  drift: (n: number) => number = () => 0,
) {
  const rng = createRng(seed);
  return Array.from({ length: trials }, (_, n) =>
    Array.from({ length: periods }, () => drift(n) + 0.01 * rng.normal()),
  );
}

/**
 * CSCV written the plain way, from the paper's steps: explicit row lists per split, two-pass
 * Sharpe ratios, the out-of-sample rank by sorting. Shares no code with the module.
 */
function bruteForcePbo(trials: number[][], partitions: number): { pbo: number; logits: number[] } {
  const total = trials[0]!.length;
  const size = Math.floor(total / partitions);
  const skip = total - size * partitions;
  const blockRows = Array.from({ length: partitions }, (_, s) =>
    Array.from({ length: size }, (_, k) => skip + s * size + k),
  );
  const choose = (from: number, left: number): number[][] => {
    if (left === 0) return [[]];
    const out: number[][] = [];
    for (let s = from; s <= partitions - left; s++) {
      for (const rest of choose(s + 1, left - 1)) out.push([s, ...rest]);
    }
    return out;
  };
  const sharpe = (series: number[], rows: number[]) => {
    const values = rows.map((r) => series[r]!);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1));
    return mean / sd;
  };
  const logits: number[] = [];
  for (const train of choose(0, partitions / 2)) {
    const trainRows = train.flatMap((s) => blockRows[s]!);
    const testRows = blockRows.filter((_, s) => !train.includes(s)).flat();
    const inSample = trials.map((series) => sharpe(series, trainRows));
    const outOfSample = trials.map((series) => sharpe(series, testRows));
    const best = inSample.indexOf(Math.max(...inSample));
    const sorted = [...outOfSample].sort((a, b) => a - b);
    const rank = sorted.indexOf(outOfSample[best]!) + 1;
    const omega = rank / (trials.length + 1);
    logits.push(Math.log(omega / (1 - omega)));
  }
  return { pbo: logits.filter((l) => l <= 0).length / logits.length, logits };
}

describe('probabilityOfBacktestOverfitting', () => {
  it('is 0 when one trial is best in every period (no selection bias to find)', () => {
    // The same noise for all, shifted up by the trial's number: trial 4 wins in and out of sample.
    const base = noise(3, 1, 320)[0]!;
    const trials = Array.from({ length: 5 }, (_, n) => base.map((r) => r + n * 0.002));
    const result = pbo(trials);
    expect(result).toMatchObject({
      pbo: 0,
      partitions: 16,
      combinations: 12870,
      trials: 5,
      observations: 320,
    });
    expect(Math.max(...result.logits.map((l) => Math.abs(l - Math.log(5))))).toBeLessThan(1e-12);
  });

  it('is 0 for identical trials (a tie counts for the chosen trial)', () => {
    const base = noise(5, 1, 64)[0]!;
    expect(pbo([base, [...base], [...base]], 8).pbo).toBe(0);
  });

  it('is 1 when what wins in sample always loses out of sample', () => {
    const a = [0.02, 0.01, 0.03, 0.02, -0.02, -0.01, -0.03, -0.02];
    const b = [-0.02, -0.01, -0.03, -0.02, 0.02, 0.01, 0.03, 0.02];
    const result = pbo([a, b], 2);
    expect(result).toMatchObject({ pbo: 1, combinations: 2 });
    for (const logit of result.logits) expect(logit).toBeCloseTo(Math.log(0.5), 12);
  });

  it('matches a brute-force CSCV on pure noise, dropping the oldest periods that do not fill a block', () => {
    const trials = noise(11, 12, 250);
    const fast = pbo(trials, 10);
    const slow = bruteForcePbo(trials, 10);
    expect(fast.observations).toBe(250);
    expect(fast.combinations).toBe(252);
    expect(fast.pbo).toBe(slow.pbo);
    expect(fast.logits.toSorted((x, y) => x - y)).toEqual(slow.logits.toSorted((x, y) => x - y));
    // Noise has no edge: the in-sample winner is a coin flip out of sample.
    expect(fast.pbo).toBeGreaterThan(0.25);
    expect(fast.pbo).toBeLessThan(0.75);

    const uneven = noise(12, 6, 203);
    expect(pbo(uneven, 8).pbo).toBe(bruteForcePbo(uneven, 8).pbo);
    expect(pbo(uneven, 8).observations).toBe(200);
  });

  it('finds less overfitting when trials really differ in edge', () => {
    const trials = noise(21, 10, 800, (n) => n * 0.0008);
    const result = pbo(trials, 8);
    expect(result.pbo).toBe(bruteForcePbo(trials, 8).pbo);
    expect(result.pbo).toBeLessThan(0.1);
  });

  it('lowers S on short series and refuses what it cannot compute', () => {
    expect(pbo(noise(1, 3, 12)).partitions).toBe(6);
    expect(probabilityOfBacktestOverfitting([[0.1, 0.2, 0.3, 0.4]])).toEqual({
      ok: false,
      error: 'PBO needs at least 2 trials',
    });
    expect(
      probabilityOfBacktestOverfitting([
        [1, 2, 3, 4],
        [1, 2, 3],
      ]).ok,
    ).toBe(false);
    expect(
      probabilityOfBacktestOverfitting([
        [1, 2, 3, NaN],
        [1, 2, 3, 4],
      ]).ok,
    ).toBe(false);
    expect(probabilityOfBacktestOverfitting(noise(1, 3, 40), { partitions: 5 })).toEqual({
      ok: false,
      error: 'partitions must be an even number from 2 to 16',
    });
    expect(probabilityOfBacktestOverfitting(noise(1, 3, 20), { partitions: 16 })).toEqual({
      ok: false,
      error: 'PBO with 16 partitions needs at least 32 periods',
    });
  });
});

describe('deflated Sharpe ratio', () => {
  it("reproduces the paper's numerical example: DSR ≈ 0.9004", () => {
    // Bailey & López de Prado (2014), section 4: N = 100 trials, best annualised SR 2.5,
    // V[SR] of the annualised Sharpe ratios 0.5, T = 1250 daily returns (5 years of 250
    // days), skewness −3, kurtosis 10. Per-day figures: SR = 2.5/√250, V = 0.5/250.
    const result = deflatedSharpe({
      sharpe: 2.5 / Math.sqrt(250),
      sharpeVariance: 0.5 / 250,
      trials: 100,
      observations: 1250,
      skewness: -3,
      kurtosis: 10,
    });
    // SR₀ ≈ 0.1132 per day (1.7894 annualised), as published.
    expect(result!.expectedMaxSharpe).toBeCloseTo(0.11317200186513214, 12);
    expect(result!.expectedMaxSharpe * Math.sqrt(250)).toBeCloseTo(1.7894, 4);
    expect(result!.value).toBeCloseTo(0.9004, 4);
    // scipy.stats.norm with the same inputs: 0.9003968344493904.
    expect(result!.value).toBeCloseTo(0.9003968344493904, 11);
  });

  it('equals the PSR against 0 for a single trial, and the plain z-test for normal returns', () => {
    const sharpe = 0.1;
    expect(expectedMaxSharpe(1, 0.5)).toBe(0);
    const single = deflatedSharpe({
      sharpe,
      sharpeVariance: 0,
      trials: 1,
      observations: 101,
      skewness: 0,
      kurtosis: 3,
    });
    expect(single!.value).toBeCloseTo(
      probabilisticSharpe({ sharpe, benchmark: 0, observations: 101, skewness: 0, kurtosis: 3 })!,
      15,
    );
    // z = 0.1 × √100 / √(1 + 0.5 × 0.01) = 0.997509…; scipy norm.cdf(z) = 0.8407413278013518.
    expect(single!.value).toBeCloseTo(0.8407413278013518, 12);
  });

  it('grows the bar with the number of trials', () => {
    expect(expectedMaxSharpe(10, 1)).toBeLessThan(expectedMaxSharpe(100, 1));
    // scipy: 0.4228 × norm.ppf(0.999) + 0.5772 × norm.ppf(1 − 1/(1000 e)) = 3.255121513652723.
    expect(expectedMaxSharpe(1000, 1)).toBeCloseTo(3.255121513652723, 12);
  });

  it('from returns: picks the best Sharpe and matches an independent SciPy computation', () => {
    const returns = [
      [0.01, -0.004, 0.007, 0.002, -0.011, 0.015, 0.003, -0.002, 0.009, -0.006, 0.012, 0.001],
      [0.004, 0.002, -0.003, 0.006, 0.001, -0.002, 0.005, 0.0, 0.003, -0.001, 0.002, 0.004],
      [-0.008, 0.011, -0.005, 0.009, -0.012, 0.007, 0.01, -0.009, 0.004, 0.006, -0.003, 0.002],
      [0.001, 0.001, 0.002, -0.001, 0.0, 0.003, -0.002, 0.001, 0.002, 0.0, 0.001, -0.001],
    ];
    const result = deflatedSharpeFromReturns(returns);
    // numpy/scipy: sr = mean/std(ddof=1); V = var(sr, ddof=1); scipy.stats.skew and
    // kurtosis(fisher=False) of the best; norm.ppf / norm.cdf.
    expect(result!.sharpe).toBeCloseTo(0.6178414402787976, 12);
    expect(result!.expectedMaxSharpe).toBeCloseTo(0.21285859023935205, 12);
    expect(result!.skewness).toBeCloseTo(-0.21153565917664216, 12);
    expect(result!.kurtosis).toBeCloseTo(1.9494980298373308, 12);
    expect(result!.value).toBeCloseTo(0.8878938248620878, 11);
    expect(result!.trials).toBe(4);
    expect(result!.observations).toBe(12);
    // The optimisation's chosen trial may be another one.
    expect(deflatedSharpeFromReturns(returns, 2)!.sharpe).toBeCloseTo(0.12377533785790461, 12);
  });

  it('is null when the chosen trial does not vary or the variance term is not positive', () => {
    expect(
      deflatedSharpeFromReturns(
        [
          [0.01, 0.01, 0.01],
          [0.02, -0.01, 0.0],
        ],
        0,
      ),
    ).toBeNull();
    expect(
      probabilisticSharpe({ sharpe: 2, benchmark: 0, observations: 50, skewness: 3, kurtosis: 3 }),
    ).toBeNull();
  });

  it('computes moments as the paper uses them', () => {
    const m = returnMoments([1, 2, 3, 4, 10]);
    expect(m.mean).toBe(4);
    expect(m.std).toBeCloseTo(Math.sqrt(50 / 4), 12);
    expect(m.skewness).toBeCloseTo(180 / 5 / 10 ** 1.5, 12);
    expect(m.kurtosis).toBeCloseTo(1394 / 5 / 100, 12);
  });
});
