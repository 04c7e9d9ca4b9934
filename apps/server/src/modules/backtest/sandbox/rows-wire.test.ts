import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HARNESS_PATH } from './command.ts';
import type { Bar } from '@ct/domain';
import { encodeBarsJob, encodeJob, rowOfBar } from './rows-wire.ts';

/**
 * harness.py's read_job on the encoded job, next to json.loads of the same rows as JSON:
 * "same" when the values, their Python types and the row lists are equal.
 */
async function decodedLikeJson(
  rows: unknown[][],
): Promise<{ same: boolean; kinds: string[]; decoded: string }> {
  const script = [
    'import io, json, sys',
    `sys.path.insert(0, ${JSON.stringify(path.dirname(HARNESS_PATH))})`,
    'import harness',
    'data = sys.stdin.buffer.read()',
    'expected_len = int.from_bytes(data[:8], "little")',
    'expected = json.loads(data[8:8 + expected_len])',
    'stream = io.BytesIO(data[8 + expected_len:])',
    'header = json.loads(stream.getvalue().split(b"\\n", 1)[0])',
    'job = harness.read_job(stream)',
    'rows = job["rows"]',
    'typed = lambda rs: [[(type(v).__name__, v) for v in r] for r in rs]',
    'same = typed(rows) == typed(expected) and all(type(r) is list for r in rows)',
    'kinds = [c["kind"] for c in header.get("wire", {}).get("columns", [])]',
    'print(json.dumps({"same": same, "kinds": kinds, "decoded": repr(rows[:3])}))',
  ].join('\n');
  const job = await encodeJob({ code: 'x', filename: 'x.py', rows: rows as never });
  const json = Buffer.from(JSON.stringify(rows), 'utf8');
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  const out = execFileSync('python3', ['-I', '-B', '-c', script], {
    input: Buffer.concat([length, json, job]),
  });
  return JSON.parse(out.toString()) as { same: boolean; kinds: string[]; decoded: string };
}

describe('rows to the sandbox in columns', () => {
  it('give main() exactly the rows json.loads gives: strings, ints where JSON writes no fraction, floats', async () => {
    const rows = [
      ['2024-01-02 00:00:00', 'GOOG', '1d', 100, 101.5, 99.25, 100.5, 1200],
      ['2024-01-03 00:00:00', 'GOOG', '1d', 100.5, 102, -0, 1e-7, 3_000_000_000],
      ['2024-01-04 00:00:00', 'GOOG', '1d', 0.1 + 0.2, 2 ** 53, 5e-324, 1.7976931348623157e308, 0],
    ];
    const result = await decodedLikeJson(rows);
    expect(result.same, result.decoded).toBe(true);
    // beyond 2^53 (2^53 itself, the largest double) JSON carries the number
    expect(result.kinds).toEqual(['lines', 'const', 'const', 'f64', 'json', 'f64', 'json', 'f64']);
  });

  it('keep whole-number columns as ints and fall back to JSON for what columns cannot carry', async () => {
    const rows = [
      ['a\nb', 1, null, 2 ** 60, 'x\uD800', true, 7],
      ['c', 2, 3, 1, 'y', false, 8],
    ];
    const result = await decodedLikeJson(rows);
    expect(result.same, result.decoded).toBe(true);
    expect(result.kinds).toEqual(['json', 'i32', 'json', 'json', 'json', 'json', 'i32']);
  });

  it('keep no rows, rows without columns and rows of unequal length', async () => {
    for (const rows of [[], [[], []], [[1, 2], [3]]]) {
      const result = await decodedLikeJson(rows);
      expect(result.same, `${JSON.stringify(rows)}: ${result.decoded}`).toBe(true);
    }
  });
});

/** Bars as a server has them: 1-minute bars from 2020-01-01, with `change` applied. */
function someBars(count: number, change: (bar: Bar, i: number) => Bar = (bar) => bar): Bar[] {
  return Array.from({ length: count }, (_, i) =>
    change(
      {
        time: Date.UTC(2020, 0, 1) + i * 60_000,
        open: 100 + i / 7,
        high: 101 + i / 7,
        low: 99 + i / 7,
        close: 100.5 + i / 3,
        volume: i % 1000,
      },
      i,
    ),
  );
}

describe('one feed’s bars to the sandbox', () => {
  const job = { code: 'x', filename: 'x.py' };
  const both = async (bars: Bar[]) => {
    const rows = bars.map((bar) => rowOfBar(bar, 'GEN', '1m'));
    const before = await encodeJob({ ...job, rows });
    const after = await encodeBarsJob(job, { bars, symbol: 'GEN', period: '1m' });
    return { before, after, rows };
  };

  it('are the bytes the rows of the same bars gave: whole and fractional prices, NaN and missing volume, odd dates', async () => {
    const cases: Bar[][] = [
      [],
      someBars(1),
      someBars(3),
      someBars(5, (bar, i) => ({ ...bar, volume: i === 2 ? Number.NaN : bar.volume })),
      someBars(4, (bar, i) => ({ ...bar, volume: i === 1 ? (undefined as never) : 2 ** 40 })),
      someBars(4, (bar) => ({ ...bar, open: 100, close: -0, volume: 0 })),
      someBars(3, (bar, i) => ({ ...bar, high: 2 ** 31 + i, volume: (i + 1) * 2 ** 60 })),
      someBars(3, (bar, i) => ({ ...bar, low: i === 0 ? Number.POSITIVE_INFINITY : bar.low })),
      someBars(3, (bar, i) => ({ ...bar, time: Date.UTC(12_000, 0, 1) + i * 86_400_000 })),
      someBars(3, (bar, i) => ({ ...bar, time: Date.UTC(1969, 11, 31, 23, 59, 58) + i * 1000 })),
    ];
    for (const bars of cases) {
      const { before, after } = await both(bars);
      expect(after.equals(before), JSON.stringify(bars.slice(0, 2))).toBe(true);
    }
  });

  it('are the same bytes for a large count, read by the harness into the rows JSON gave', async () => {
    const { before, after } = await both(someBars(250_001));
    expect(after.length).toBe(before.length);
    expect(after.equals(before)).toBe(true);
    const small = someBars(500, (bar, i) => ({ ...bar, volume: i % 7 ? bar.volume : Number.NaN }));
    const rows = small.map((bar) => rowOfBar(bar, 'GEN', '1m'));
    const result = await decodedLikeJson(rows);
    expect(result.same, result.decoded).toBe(true);
  });
});
