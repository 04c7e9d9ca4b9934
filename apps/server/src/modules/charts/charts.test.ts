import {
  DEFAULT_DRAWING_STYLE,
  MAX_DRAWINGS_PER_SYMBOL,
  MAX_DRAWINGS_PER_USER,
  MAX_INDICATOR_CHARTS_PER_USER,
} from '@ct/domain';
import type { LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartDrawings, chartIndicators } from '../../db/schema.ts';
import { createGatewayPolicy } from '../gateway/policy.ts';
import { LIVE_TOKEN_TTL_SECONDS } from '../gateway/session-tokens.ts';
import { buildUser, loginAs } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A logged-in user calling the API. */
async function session() {
  const user = await buildUser(t.db);
  const { cookie } = await loginAs(t.app, user);
  const call = (method: Method, url: string, payload?: unknown): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method,
      url,
      cookies: { ct_sid: cookie },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return { userId: user.user.id, cookie, call };
}
type Session = Awaited<ReturnType<typeof session>>;

const A = { time: 1_767_600_000, price: 100.5 };
const B = { time: 1_767_603_600, price: 101.25 };
const trend = (symbol = 'BTCUSDT') => ({
  symbol,
  kind: 'trend',
  points: [A, B],
  style: DEFAULT_DRAWING_STYLE,
});
const hline = (symbol = 'BTCUSDT', price = 100) => ({
  symbol,
  kind: 'horizontal',
  points: [{ time: A.time, price }],
  style: DEFAULT_DRAWING_STYLE,
});

async function drawingsOf(s: Session, symbol = 'BTCUSDT') {
  const res = await s.call('GET', `/api/charts/drawings?symbol=${symbol}`);
  expect(res.statusCode).toBe(200);
  return res.json<{ drawings: Array<Record<string, unknown> & { id: number }> }>().drawings;
}

describe('authorization', () => {
  it.each([
    ['GET', '/api/charts/drawings?symbol=BTCUSDT'],
    ['POST', '/api/charts/drawings'],
    ['PUT', '/api/charts/drawings/1'],
    ['DELETE', '/api/charts/drawings/1'],
    ['GET', '/api/charts/indicators/0'],
    ['PUT', '/api/charts/indicators/0'],
  ] as const)('%s %s without a session answers 401 / 50002', async (method, url) => {
    const res = await t.app.inject({
      method,
      url,
      ...(method === 'POST' || method === 'PUT' ? { payload: {} } : {}),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 50002 });
  });
});

describe('drawings', () => {
  it('creates, lists (oldest first), moves and deletes a drawing', async () => {
    const s = await session();
    expect(await drawingsOf(s)).toEqual([]);

    t.clock.set(Date.UTC(2026, 0, 5, 9, 0, 0));
    const created = await s.call('POST', '/api/charts/drawings', trend());
    expect(created.statusCode).toBe(201);
    const drawing = created.json<{ id: number }>();
    expect(drawing).toEqual({
      id: expect.any(Number),
      symbol: 'BTCUSDT',
      kind: 'trend',
      points: [A, B],
      style: DEFAULT_DRAWING_STYLE,
      createdAt: Date.UTC(2026, 0, 5, 9, 0, 0) / 1000,
      updatedAt: Date.UTC(2026, 0, 5, 9, 0, 0) / 1000,
    });
    const second = (await s.call('POST', '/api/charts/drawings', hline())).json<{ id: number }>();
    expect((await drawingsOf(s)).map((d) => d.id)).toEqual([drawing.id, second.id]);

    t.clock.advance(60_000);
    const moved = [
      { time: A.time + 3600, price: 99 },
      { time: B.time + 3600, price: 98 },
    ];
    const put = await s.call('PUT', `/api/charts/drawings/${drawing.id}`, {
      kind: 'trend',
      points: moved,
      style: { color: '#ff0000', width: 1, line: 'dashed' },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({
      id: drawing.id,
      points: moved,
      style: { color: '#ff0000', width: 1, line: 'dashed' },
      updatedAt: Date.UTC(2026, 0, 5, 9, 1, 0) / 1000,
      createdAt: Date.UTC(2026, 0, 5, 9, 0, 0) / 1000,
    });
    expect((await drawingsOf(s))[0]).toMatchObject({ id: drawing.id, points: moved });

    const del = await s.call('DELETE', `/api/charts/drawings/${drawing.id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ deleted: drawing.id });
    expect((await drawingsOf(s)).map((d) => d.id)).toEqual([second.id]);
    expect((await s.call('DELETE', `/api/charts/drawings/${drawing.id}`)).statusCode).toBe(404);
  });

  it('keeps drawings per instrument', async () => {
    const s = await session();
    await s.call('POST', '/api/charts/drawings', hline('BTCUSDT'));
    await s.call('POST', '/api/charts/drawings', hline('EURUSD', 1.1));
    expect((await drawingsOf(s, 'BTCUSDT')).map((d) => d.symbol)).toEqual(['BTCUSDT']);
    expect((await drawingsOf(s, 'EURUSD')).map((d) => d.symbol)).toEqual(['EURUSD']);
  });

  it("isolates users: another user's drawing is neither listed, changed nor deleted, and answers like an unknown id", async () => {
    const owner = await session();
    const other = await session();
    const { id } = (await owner.call('POST', '/api/charts/drawings', trend())).json<{
      id: number;
    }>();

    expect(await drawingsOf(other)).toEqual([]);
    const put = await other.call('PUT', `/api/charts/drawings/${id}`, {
      kind: 'horizontal',
      points: [A],
      style: DEFAULT_DRAWING_STYLE,
    });
    const unknown = await other.call('PUT', '/api/charts/drawings/2000000000', {
      kind: 'horizontal',
      points: [A],
      style: DEFAULT_DRAWING_STYLE,
    });
    expect(put.statusCode).toBe(404);
    expect(put.json()).toEqual(unknown.json());
    expect(put.json()).toMatchObject({ detail: 'Drawing not found' });
    const del = await other.call('DELETE', `/api/charts/drawings/${id}`);
    expect(del.statusCode).toBe(404);
    expect(del.json()).toMatchObject({ detail: 'Drawing not found' });

    expect(await drawingsOf(owner)).toEqual([
      expect.objectContaining({ id, kind: 'trend', points: [A, B] }),
    ]);
  });

  it('refuses bad input with 422 { detail } and changes nothing', async () => {
    const s = await session();
    const kept = (await s.call('POST', '/api/charts/drawings', trend())).json<{ id: number }>();
    const before = await drawingsOf(s);
    const bad: Array<[unknown, RegExp]> = [
      [{ ...trend(), kind: 'circle' }, /kind/],
      [{ ...trend(), points: [A] }, /points: Expected exactly 2 points/],
      [{ ...hline(), points: [A, B] }, /points: Expected exactly 1 point/],
      [{ ...trend(), points: [A, { time: B.time, price: 'NaN' }] }, /points\.1\.price/],
      [{ ...trend(), points: [A, { time: -5, price: 1 }] }, /points\.1\.time/],
      [{ ...trend(), style: { color: 'red', width: 2, line: 'solid' } }, /style\.color/],
      [{ ...trend(), owner: 7 }, /owner/],
      [trend('NOSUCH'), /symbol: Unknown instrument NOSUCH/],
    ];
    for (const [body, detail] of bad) {
      const res = await s.call('POST', '/api/charts/drawings', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json<{ detail: string }>().detail).toMatch(detail);
      expect(res.json()).toMatchObject({ code: 42200 });
    }
    // JSON cannot carry Infinity; a number too large for the schema stands in for it
    const huge = await s.call('POST', '/api/charts/drawings', {
      ...hline(),
      points: [{ time: A.time, price: 1e300 }],
    });
    expect(huge.statusCode).toBe(422);

    const badMove = await s.call('PUT', `/api/charts/drawings/${kept.id}`, {
      kind: 'trend',
      points: [A],
      style: DEFAULT_DRAWING_STYLE,
    });
    expect(badMove.statusCode).toBe(422);
    expect((await s.call('PUT', '/api/charts/drawings/abc', trend())).statusCode).toBe(404);
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/charts/drawings',
      headers: { 'content-type': 'application/json' },
      cookies: { ct_sid: s.cookie },
      payload: '{',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ detail: 'Malformed JSON body' });
    expect((await s.call('GET', '/api/charts/drawings?symbol=NOSUCH')).statusCode).toBe(422);
    expect((await s.call('GET', '/api/charts/drawings')).statusCode).toBe(422);

    expect(await drawingsOf(s)).toEqual(before);
  });

  it('refuses a body over 16 KiB', async () => {
    const s = await session();
    const res = await s.call('POST', '/api/charts/drawings', {
      ...hline(),
      padding: 'x'.repeat(17 * 1024),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ detail: 'Request body is too large' });
    expect(await drawingsOf(s)).toEqual([]);
  });

  it(`allows ${MAX_DRAWINGS_PER_SYMBOL} drawings per instrument, also under concurrent creation`, async () => {
    const s = await session();
    const now = Math.floor(t.clock.now() / 1000);
    await t.db.insert(chartDrawings).values(
      Array.from({ length: MAX_DRAWINGS_PER_SYMBOL - 2 }, () => ({
        userId: s.userId,
        symbol: 'BTCUSDT',
        kind: 'horizontal',
        points: [A],
        style: DEFAULT_DRAWING_STYLE,
        createdAt: now,
        updatedAt: now,
      })),
    );
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => s.call('POST', '/api/charts/drawings', hline())),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 201, 422, 422, 422]);
    expect(answers.find((r) => r.statusCode === 422)?.json()).toMatchObject({
      detail: `At most ${MAX_DRAWINGS_PER_SYMBOL} drawings on one instrument: delete some first`,
    });
    expect(await drawingsOf(s)).toHaveLength(MAX_DRAWINGS_PER_SYMBOL);
    // another instrument still has room
    expect((await s.call('POST', '/api/charts/drawings', hline('EURUSD'))).statusCode).toBe(201);
  });

  it(`allows ${MAX_DRAWINGS_PER_USER} drawings per user over all instruments`, async () => {
    const s = await session();
    const now = Math.floor(t.clock.now() / 1000);
    const symbols = [
      'BTCUSDT',
      'ETHUSDT',
      'EURUSD',
      'XAUUSD',
      'XAGUSD',
      'USDJPY',
      'GBPUSD',
      'AUDUSD',
      'USDCAD',
      'GOOG',
    ];
    await t.db.insert(chartDrawings).values(
      Array.from({ length: MAX_DRAWINGS_PER_USER }, (_, i) => ({
        userId: s.userId,
        symbol: `${symbols[i % 10]}`,
        kind: 'horizontal',
        points: [A],
        style: DEFAULT_DRAWING_STYLE,
        createdAt: now,
        updatedAt: now,
      })),
    );
    const res = await s.call('POST', '/api/charts/drawings', hline('BTCUSD'));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      detail: `At most ${MAX_DRAWINGS_PER_USER} drawings in all: delete some first`,
    });
    expect(await drawingsOf(s, 'BTCUSD')).toEqual([]);
    // another user is not affected
    const other = await session();
    expect((await other.call('POST', '/api/charts/drawings', hline('BTCUSD'))).statusCode).toBe(
      201,
    );
  });
});

describe('drawing styles', () => {
  const red = { color: '#f23645', width: 3, line: 'dotted' } as const;
  const rect = (style?: unknown) => ({
    symbol: 'BTCUSDT',
    kind: 'rectangle',
    points: [A, B],
    ...(style === undefined ? {} : { style }),
  });

  it('restyles a drawing (colour, width, line, a rectangle’s fill) and lists it restyled', async () => {
    const s = await session();
    const { id } = (
      await s.call('POST', '/api/charts/drawings', rect(DEFAULT_DRAWING_STYLE))
    ).json<{
      id: number;
    }>();
    const put = await s.call('PUT', `/api/charts/drawings/${id}`, {
      kind: 'rectangle',
      points: [A, B],
      style: { ...red, fill: 0.5 },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ style: { ...red, fill: 0.5 } });
    expect((await drawingsOf(s))[0]).toMatchObject({ id, style: { ...red, fill: 0.5 } });
  });

  it('gives a new drawing sent without a style the default one; a move without a style keeps it', async () => {
    const s = await session();
    const created = await s.call('POST', '/api/charts/drawings', rect());
    expect(created.statusCode).toBe(201);
    const { id } = created.json<{ id: number }>();
    expect(created.json()).toMatchObject({ style: DEFAULT_DRAWING_STYLE });
    await s.call('PUT', `/api/charts/drawings/${id}`, {
      kind: 'rectangle',
      points: [A, B],
      style: { ...red, fill: 0.25 },
    });
    const moved = [A, { time: B.time + 3600, price: 102 }];
    const move = await s.call('PUT', `/api/charts/drawings/${id}`, {
      kind: 'rectangle',
      points: moved,
    });
    expect(move.statusCode).toBe(200);
    expect(move.json()).toMatchObject({ points: moved, style: { ...red, fill: 0.25 } });
  });

  it('refuses a style outside the rules with 422 naming the field, and keeps the old one', async () => {
    const s = await session();
    const { id } = (await s.call('POST', '/api/charts/drawings', trend())).json<{ id: number }>();
    const bad: Array<[unknown, RegExp]> = [
      [{ ...DEFAULT_DRAWING_STYLE, color: 'blue' }, /style\.color: Colour must be #rrggbb/],
      [{ ...DEFAULT_DRAWING_STYLE, width: 5 }, /style\.width/],
      [{ ...DEFAULT_DRAWING_STYLE, width: 0 }, /style\.width/],
      [{ ...DEFAULT_DRAWING_STYLE, line: 'wavy' }, /style\.line/],
      [{ ...DEFAULT_DRAWING_STYLE, fill: 0.5 }, /fill/],
      [{ color: '#2962ff' }, /style\.width/],
    ];
    for (const [style, detail] of bad) {
      const res = await s.call('PUT', `/api/charts/drawings/${id}`, {
        kind: 'trend',
        points: [A, B],
        style,
      });
      expect(res.statusCode, JSON.stringify(style)).toBe(422);
      expect(res.json<{ detail: string }>().detail).toMatch(detail);
    }
    const rectangle = await s.call('POST', '/api/charts/drawings', rect({ ...red, fill: 2 }));
    expect(rectangle.statusCode).toBe(422);
    expect(rectangle.json<{ detail: string }>().detail).toMatch(/style\.fill/);
    expect((await drawingsOf(s)).map((d) => d.style)).toEqual([DEFAULT_DRAWING_STYLE]);
  });

  it('reads a drawing stored without a usable style with the default one', async () => {
    const s = await session();
    const { id } = (await s.call('POST', '/api/charts/drawings', trend())).json<{ id: number }>();
    await t.db
      .update(chartDrawings)
      .set({ style: { color: 'nope' } as never })
      .where(eq(chartDrawings.id, id));
    const res = await s.call('GET', '/api/charts/drawings?symbol=BTCUSDT');
    expect(res.statusCode).toBe(200);
    expect(res.json<{ drawings: unknown[] }>().drawings).toEqual([
      expect.objectContaining({ id, style: DEFAULT_DRAWING_STYLE }),
    ]);
  });
});

describe('drawings live', () => {
  /** What the broker carries on `charts:{userId}` while `act` runs. */
  async function published(userId: number, act: () => Promise<unknown>): Promise<unknown[]> {
    const seen: unknown[] = [];
    const stop = t.app.services.broker.listen(({ channel, data }) => {
      if (channel === `charts:${userId}`) seen.push(data);
    });
    try {
      await act();
    } finally {
      stop();
    }
    return seen;
  }

  it('publishes each saved and deleted drawing on the user’s own channel', async () => {
    const s = await session();
    const other = await session();
    let id = 0;
    const created = await published(s.userId, async () => {
      id = (await s.call('POST', '/api/charts/drawings', hline())).json<{ id: number }>().id;
    });
    expect(created).toEqual([
      { type: 'drawing_saved', drawing: expect.objectContaining({ id, kind: 'horizontal' }) },
    ]);
    const restyled = await published(s.userId, () =>
      s.call('PUT', `/api/charts/drawings/${id}`, {
        kind: 'horizontal',
        points: [{ time: A.time, price: 101 }],
        style: { color: '#089981', width: 1, line: 'dashed' },
      }),
    );
    expect(restyled).toEqual([
      {
        type: 'drawing_saved',
        drawing: expect.objectContaining({
          id,
          points: [{ time: A.time, price: 101 }],
          style: { color: '#089981', width: 1, line: 'dashed' },
        }),
      },
    ]);
    // another user's call, a refused change and an unknown id publish nothing
    const nothing = await published(s.userId, async () => {
      await other.call('DELETE', `/api/charts/drawings/${id}`);
      await s.call('PUT', `/api/charts/drawings/${id}`, { kind: 'horizontal', points: [A, B] });
      await s.call('DELETE', '/api/charts/drawings/999999');
    });
    expect(nothing).toEqual([]);
    const deleted = await published(s.userId, () => s.call('DELETE', `/api/charts/drawings/${id}`));
    expect(deleted).toEqual([{ type: 'drawing_deleted', id, symbol: 'BTCUSDT' }]);
  });

  it('mints tokens of the session user’s channel that the gateway accepts for that user only', async () => {
    const s = await session();
    const other = await session();
    const res = await s.call('GET', '/api/charts/live-token');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const token = res.json<{
      connectToken: string;
      channel: string;
      subscriptionToken: string;
      expiresAt: number;
    }>();
    expect(token.channel).toBe(`charts:${s.userId}`);
    // as the account channel's: short, and ending with the login session
    expect(token.expiresAt).toBe(Math.floor(t.clock.now() / 1000) + LIVE_TOKEN_TTL_SECONDS);
    const policy = createGatewayPolicy({
      secret: 'test-live-token-secret',
      now: t.clock.now,
      isKnownSymbol: () => true,
    });
    const sessionId = expect.any(Number) as unknown as number;
    const me = await policy.authenticate(token.connectToken);
    expect(me).toEqual({ userId: s.userId, expiresAt: token.expiresAt, sessionId });
    const identity = { userId: s.userId };
    expect(await policy.authorize(identity, token.channel, token.subscriptionToken)).toEqual({
      expiresAt: token.expiresAt,
      sessionId,
    });
    // the token opens neither another user's channel nor this channel to another user
    expect(
      await policy.authorize(identity, `charts:${other.userId}`, token.subscriptionToken),
    ).toMatchObject({ code: 103 });
    expect(
      await policy.authorize({ userId: other.userId }, token.channel, token.subscriptionToken),
    ).toMatchObject({ code: 103 });
    expect((await t.app.inject({ method: 'GET', url: '/api/charts/live-token' })).statusCode).toBe(
      401,
    );
  });
});

describe('indicator settings', () => {
  const sma = { id: 'sma-1', kind: 'sma', params: { period: 20 }, visible: true, color: '#ff9800' };
  const rsi = { id: 'rsi-1', kind: 'rsi', params: { period: 14 }, visible: false };

  it('answers an empty list for a chart without settings, then what was saved', async () => {
    const s = await session();
    expect((await s.call('GET', '/api/charts/indicators/0')).json()).toEqual({ indicators: [] });
    const put = await s.call('PUT', '/api/charts/indicators/0', { indicators: [sma, rsi] });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ indicators: [sma, rsi] });
    expect((await s.call('GET', '/api/charts/indicators/0')).json()).toEqual({
      indicators: [sma, rsi],
    });
    expect((await s.call('GET', '/api/charts/indicators/1')).json()).toEqual({ indicators: [] });

    await s.call('PUT', '/api/charts/indicators/0', { indicators: [rsi] });
    expect((await s.call('GET', '/api/charts/indicators/0')).json()).toEqual({ indicators: [rsi] });
    await s.call('PUT', '/api/charts/indicators/0', { indicators: [] });
    expect((await s.call('GET', '/api/charts/indicators/0')).json()).toEqual({ indicators: [] });
  });

  it("keeps each user's settings apart", async () => {
    const a = await session();
    const b = await session();
    await a.call('PUT', '/api/charts/indicators/main', { indicators: [sma] });
    expect((await b.call('GET', '/api/charts/indicators/main')).json()).toEqual({
      indicators: [],
    });
    await b.call('PUT', '/api/charts/indicators/main', { indicators: [rsi] });
    expect((await a.call('GET', '/api/charts/indicators/main')).json()).toEqual({
      indicators: [sma],
    });
  });

  it('refuses bad input with 422 and keeps what was saved', async () => {
    const s = await session();
    await s.call('PUT', '/api/charts/indicators/0', { indicators: [sma] });
    const bad: Array<[string, unknown]> = [
      ['/api/charts/indicators/0', { indicators: [{ ...sma, kind: 'ichimoku' }] }],
      ['/api/charts/indicators/0', { indicators: [sma, sma] }],
      ['/api/charts/indicators/0', { indicators: [{ ...sma, params: { period: -1 } }] }],
      [
        '/api/charts/indicators/0',
        { indicators: Array.from({ length: 11 }, (_, i) => ({ ...sma, id: `s${i}` })) },
      ],
      ['/api/charts/indicators/0', { list: [] }],
      ['/api/charts/indicators/bad%20key', { indicators: [] }],
    ];
    for (const [url, body] of bad) {
      const res = await s.call('PUT', url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json()).toMatchObject({ code: 42200, detail: expect.any(String) });
    }
    expect((await s.call('GET', '/api/charts/indicators/0')).json()).toEqual({ indicators: [sma] });
  });

  it(`allows settings on at most ${MAX_INDICATOR_CHARTS_PER_USER} charts per user`, async () => {
    const s = await session();
    await t.db.insert(chartIndicators).values(
      Array.from({ length: MAX_INDICATOR_CHARTS_PER_USER }, (_, i) => ({
        userId: s.userId,
        chartKey: `k${i}`,
        indicators: [sma],
        updatedAt: 0,
      })),
    );
    const refused = await s.call('PUT', '/api/charts/indicators/new', { indicators: [sma] });
    expect(refused.statusCode).toBe(422);
    expect((await s.call('GET', '/api/charts/indicators/new')).json()).toEqual({
      indicators: [],
    });
    // a chart that has settings can change them; clearing one makes room
    expect(
      (await s.call('PUT', '/api/charts/indicators/k0', { indicators: [rsi] })).statusCode,
    ).toBe(200);
    await s.call('PUT', '/api/charts/indicators/k1', { indicators: [] });
    expect(
      (await s.call('PUT', '/api/charts/indicators/new', { indicators: [sma] })).statusCode,
    ).toBe(200);
  });

  it('drops stored entries that no longer read under the schema', async () => {
    const s = await session();
    await t.db.insert(chartIndicators).values({
      userId: s.userId,
      chartKey: 'old',
      indicators: [sma, { id: 'x', kind: 'gone', params: {}, visible: true }],
      updatedAt: 0,
    });
    expect((await s.call('GET', '/api/charts/indicators/old')).json()).toEqual({
      indicators: [sma],
    });
  });
});
