import { historicalColumnsOf } from '@ct/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, loginAs } from '../test/factories.ts';
import { createTestApp, type TestApp } from '../test/helpers.ts';
import { BODY_WORKER_MIN_BYTES } from '../http/body-parsers.ts';

/*
 * Large bodies parsed and validated in a body worker answer exactly what the same body
 * parsed on the event loop answers: good input, a schema refusal, malformed JSON and a
 * prototype key. A small body (event loop) and a large one (worker) differing only in size
 * are compared byte for byte.
 */

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  cookie = (await loginAs(t.app, await buildUser(t.db))).cookie;
});
afterAll(() => t.close());

const send = (payload: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/market/imports',
    cookies: { ct_sid: cookie },
    headers: { 'content-type': 'application/json' },
    payload,
  });

/** A CSV of daily rows, `rows` of them; about 30 bytes a row. */
function csv(rows: number): string {
  const lines = ['Date,Open,High,Low,Close,Volume'];
  for (let i = 0; i < rows; i++) {
    const d = new Date(Date.UTC(1990, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    lines.push(`${d},1,2,0.5,1.5,10`);
  }
  return lines.join('\n');
}
const LARGE_ROWS = Math.ceil((BODY_WORKER_MIN_BYTES * 1.5) / 30);

describe('a large body in a body worker', () => {
  it('answers good input as the event loop does', async () => {
    const small = await send(JSON.stringify({ name: 'small', csv: csv(LARGE_ROWS).slice(0, 500) }));
    expect(small.statusCode).toBe(200);
    const large = await send(JSON.stringify({ name: 'large', csv: csv(LARGE_ROWS) }));
    expect(large.statusCode).toBe(200);
    expect(large.json()).toMatchObject({ name: 'large', bars: LARGE_ROWS, resolution: 'day' });
  });

  it('refuses a schema failure, malformed JSON and a prototype key with the same answers', async () => {
    const padding = 'x'.repeat(BODY_WORKER_MIN_BYTES);
    const pairs = [
      [
        JSON.stringify({ name: 'bad name!', csv: 'x' }),
        JSON.stringify({ name: 'bad name!', csv: padding }),
      ],
      ['{"name": "a", "csv": "x"', `{"name": "a", "csv": "${padding}"`],
      [
        '{"name": "a", "csv": "x", "__proto__": {"polluted": true}}',
        `{"name": "a", "csv": "${padding}", "__proto__": {"polluted": true}}`,
      ],
    ];
    for (const [smallBody, largeBody] of pairs) {
      const small = await send(smallBody as string);
      const large = await send(largeBody as string);
      expect(small.statusCode).toBe(400);
      expect({ status: large.statusCode, body: large.body }).toEqual({
        status: small.statusCode,
        body: small.body,
      });
    }
  });
});

describe("a large backtest body's bars in a body worker", () => {
  const post = (body: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/backtest/code',
      cookies: { ct_sid: cookie },
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const bar = (i: number) => ({
    Time: new Date(Date.UTC(2020, 0, 1) + i * 60_000)
      .toISOString()
      .replace(/-/g, '/')
      .replace('T', ' ')
      .slice(0, 19),
    Open: 1,
    High: 2,
    Low: 0.5,
    Close: 1.5,
    Volume: 10,
  });
  const LARGE_BARS = Math.ceil((BODY_WORKER_MIN_BYTES * 1.5) / 80);

  it('refuses bad rows with the answers of the event loop', async () => {
    const cases: ((bars: unknown[]) => unknown)[] = [
      (bars) => {
        bars[7] = { ...(bars[7] as object), Time: 'yesterday' };
        return { code: 'def main(d):\n    return []\n', historical_data: bars };
      },
      (bars) => {
        bars[9] = bars[8];
        return { code: 'def main(d):\n    return []\n', historical_data: bars };
      },
      (bars) => {
        bars[3] = { ...(bars[3] as object), Close: 'x' };
        return {
          code: 'def main(d):\n    return []\n',
          feeds: [{ symbol_id: 'BTCUSDT', period: '1m', historical_data: bars }],
        };
      },
      // the same bars as columns
      (bars) => {
        const columns = historicalColumnsOf(bars as ReturnType<typeof bar>[]);
        columns.Low[5] = 'low';
        return { code: 'def main(d):\n    return []\n', historical_data: columns };
      },
      (bars) => {
        const columns = historicalColumnsOf(bars as ReturnType<typeof bar>[]);
        columns.Time[6] = columns.Time[5] as string;
        return {
          code: 'def main(d):\n    return []\n',
          feeds: [{ symbol_id: 'BTCUSDT', period: '1m', historical_data: columns }],
        };
      },
    ];
    for (const make of cases) {
      const small = await post(make(Array.from({ length: 20 }, (_, i) => bar(i))));
      const large = await post(make(Array.from({ length: LARGE_BARS }, (_, i) => bar(i))));
      expect(small.statusCode).toBe(400);
      expect({ status: large.statusCode, body: large.body }).toEqual({
        status: small.statusCode,
        body: small.body,
      });
    }
  });
});
