import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HARNESS_PATH } from './command.ts';
import { encodeJob } from './rows-wire.ts';

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
