import type { BenchContext, BenchLogin } from './types.ts';

/** Heavy payloads of the neighbour bench's operations (the bench imports no apps code). */

const pad2 = (n: number) => String(n).padStart(2, '0');
const START = Date.UTC(2020, 0, 1);

function stamp(i: number, dateSep: string): string {
  const d = new Date(START + i * 60_000);
  return `${d.getUTCFullYear()}${dateSep}${pad2(d.getUTCMonth() + 1)}${dateSep}${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:00`;
}

export function minuteCsv(rows: number): string {
  const lines = ['Time,Open,High,Low,Close,Volume'];
  for (let i = 0; i < rows; i++) {
    const close = (100 + Math.sin(i / 50) * 5).toFixed(2);
    lines.push(`${stamp(i, '-')},${close},${close},${close},${close},${i % 1000}`);
  }
  return `${lines.join('\n')}\n`;
}

export function minuteBars(count: number): Record<string, number | string>[] {
  return Array.from({ length: count }, (_, i) => {
    const close = 100 + Math.sin(i / 50) * 5;
    return {
      Time: stamp(i, '/'),
      Open: close,
      High: close + 1,
      Low: close - 1,
      Close: close,
      Volume: 10,
    };
  });
}

export const NO_TRADES = 'def main(data_array):\n    return []\n';

export const TRADE_EVERY_BAR = [
  'def main(d):',
  '    return [{"open_date": d[i][0], "close_date": d[i + 1][0], "open_price": d[i][6],',
  '             "close_price": d[i + 1][6], "lots": 1, "status": "YES"} for i in range(len(d) - 1)]',
  '',
].join('\n');

/** A call as `who`; fails unless answered 2xx. Resolves with the answer's JSON. */
export async function post(
  context: BenchContext,
  route: string,
  body: string,
  who: BenchLogin = context.heavy,
): Promise<unknown> {
  const res = await fetch(`${context.url}${route}`, {
    method: 'POST',
    headers: { cookie: `ct_sid=${who.cookie}`, 'content-type': 'application/json' },
    body,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${route} answered ${res.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as unknown;
}

export async function get(context: BenchContext, route: string): Promise<void> {
  const res = await fetch(`${context.url}${route}`, {
    headers: { cookie: `ct_sid=${context.heavy.cookie}` },
  });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${route} answered ${res.status}`);
}
