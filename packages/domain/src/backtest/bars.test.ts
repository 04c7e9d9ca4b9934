import { describe, expect, it } from 'vitest';
import {
  FLAT_BAR_FIELDS,
  barsFromHistorical,
  flatBarsFromHistorical,
  historicalColumnsOf,
  historicalDataSchema,
  historicalLength,
  inferPeriod,
} from './bars.ts';

const ROWS = [
  { Time: '2024/01/05 00:00:00', Open: 1, High: 2, Low: 0.5, Close: 1.5, Volume: 10 },
  { Time: '2024/01/08 00:00:00', Open: 1.5, High: 2, Low: 1, Close: 1.8 },
  { Time: '2024/01/09 00:00:00', Open: 1.8, High: 2, Low: 1, Close: 1.9, Volume: null },
];

/** The same bars as columns. */
const COLUMNS = historicalColumnsOf(ROWS);

describe('historical_data as rows or columns', () => {
  it('reads columns into exactly the bars of the same rows', () => {
    const rows = barsFromHistorical(ROWS);
    const columns = barsFromHistorical(COLUMNS);
    expect(rows.ok).toBe(true);
    expect(columns).toEqual(rows);
    expect(historicalLength(ROWS)).toBe(3);
    expect(historicalLength(COLUMNS)).toBe(3);
    expect(COLUMNS.Volume).toEqual([10, null, null]);
    expect(COLUMNS.Time).toEqual(ROWS.map((row) => row.Time));
    const { Volume: _volume, ...withoutVolume } = COLUMNS;
    const noVolume = barsFromHistorical(withoutVolume);
    expect(noVolume.ok && noVolume.bars.map((bar) => bar.volume)).toEqual([0, 0, 0]);
  });

  it('gives the bars as one flat array, six numbers a bar, with their period every sixth', () => {
    const read = flatBarsFromHistorical(COLUMNS);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.flat).toHaveLength(3 * FLAT_BAR_FIELDS);
    expect([...read.flat.subarray(6, 12)]).toEqual([Date.UTC(2024, 0, 8), 1.5, 2, 1, 1.8, 0]);
    // every sixth number is a time: the same period as of the times alone
    const times = [Date.UTC(2024, 0, 5), Date.UTC(2024, 0, 8), Date.UTC(2024, 0, 9)];
    expect(inferPeriod(read.flat, FLAT_BAR_FIELDS)).toBe(inferPeriod(times));
    expect(inferPeriod(new Float64Array([0, 9, 9, 9, 9, 9, 86_400_000, 9, 9, 9, 9, 9]), 6)).toBe(
      'day',
    );
    expect(inferPeriod([0, 60_000, 120_000])).toBe('1m');
    expect(inferPeriod([0], FLAT_BAR_FIELDS)).toBeNull();
  });

  it('names the column and the index of a bad value, as rows name the row and field', () => {
    expect(flatBarsFromHistorical({ ...COLUMNS, High: [2, 'x', 2] })).toEqual({
      ok: false,
      error: "historical_data.High[1]: must be a number, got 'x'",
    });
    expect(
      flatBarsFromHistorical({ ...COLUMNS, Time: ['2024/01/05 00:00:00', 'soon', 'later'] }),
    ).toEqual({
      ok: false,
      error: "historical_data.Time[1]: must be a date like '2024/01/31 09:30:00', got 'soon'",
    });
    expect(
      flatBarsFromHistorical({
        ...COLUMNS,
        Time: [COLUMNS.Time[0], COLUMNS.Time[0], COLUMNS.Time[2]],
      }),
    ).toEqual({
      ok: false,
      error:
        'historical_data.Time[1]: 2024/01/05 00:00:00 is not after the previous bar (bars must be in ascending time order, without duplicates)',
    });
    expect(flatBarsFromHistorical({ ...COLUMNS, Volume: [1, 2, Infinity] })).toEqual({
      ok: false,
      error: 'historical_data.Volume[2]: must be a number, got null',
    });
    expect(barsFromHistorical([ROWS[0], { ...ROWS[1], Low: '1' }])).toEqual({
      ok: false,
      error: "historical_data[1].Low: must be a number, got '1'",
    });
  });

  it('refuses columns of different lengths, naming the column', () => {
    expect(flatBarsFromHistorical({ ...COLUMNS, Close: [1, 2] })).toEqual({
      ok: false,
      error: 'historical_data.Close: has 2 values where Time has 3',
    });
  });

  it('accepts rows or columns in a body, refusing unknown columns and too many bars', () => {
    const schema = historicalDataSchema({ bars: 2, message: 'at most 2 bars' });
    expect(schema.safeParse(ROWS.slice(0, 2)).success).toBe(true);
    expect(schema.safeParse({ ...COLUMNS, Time: COLUMNS.Time.slice(0, 2) }).success).toBe(true);
    expect(schema.safeParse(ROWS).success).toBe(false);
    const tooMany = schema.safeParse(COLUMNS);
    expect(tooMany.success).toBe(false);
    expect(JSON.stringify(tooMany.error)).toContain('at most 2 bars');
    expect(historicalDataSchema().safeParse({ ...COLUMNS, Extra: [] }).success).toBe(false);
    expect(historicalDataSchema().safeParse({ Time: [] }).success).toBe(false);
  });
});
