import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../test/wait-for.ts';
import { InProcessBroker, LOG_LINE_CHANNEL, SESSION_ENDED_CHANNEL } from './broker.ts';
import { alsoToCentrifugo, CentrifugoPublisher } from './centrifugo-publisher.ts';

const KEY = 'centrifugo-api-key-for-tests';

type Received = { channel: string; data: unknown };

/**
 * A stand-in for Centrifugo's HTTP API that checks each request's shape the way Centrifugo
 * does: `POST /api/publish`, `X-API-Key`, a JSON body `{ channel, data }` and nothing else.
 * Requests of another shape are recorded as problems and refused.
 */
async function fakeCentrifugo(
  answer: (body: Received) => { status: number; body: unknown } = () => ({
    status: 200,
    body: { result: {} },
  }),
  delayMs = 0,
) {
  const received: Received[] = [];
  const problems: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = http.createServer((req, res) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      const reply = (status: number, body: unknown) =>
        setTimeout(() => {
          inFlight -= 1;
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        }, delayMs);
      if (req.method !== 'POST') problems.push(`method ${req.method}`);
      if (req.url !== '/api/publish') problems.push(`path ${req.url}`);
      if (req.headers['x-api-key'] !== KEY) problems.push('x-api-key');
      if (!String(req.headers['content-type']).startsWith('application/json')) {
        problems.push(`content-type ${req.headers['content-type']}`);
      }
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        problems.push('body is not JSON');
      }
      const keys = Object.keys(body).sort().join(',');
      if (keys !== 'channel,data' || typeof body.channel !== 'string') {
        problems.push(`body keys ${keys}`);
      }
      if (problems.length > 0) return reply(400, { error: { code: 107, message: 'bad request' } });
      const publication = { channel: body.channel as string, data: body.data };
      received.push(publication);
      const { status, body: out } = answer(publication);
      reply(status, out);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  servers.push(server);
  return {
    apiUrl: `http://127.0.0.1:${port}/api`,
    received,
    problems,
    maxInFlight: () => maxInFlight,
  };
}

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const tick = (price: number) => ({ price, size: 1, tm: 1_763_780_000_000, entry: '0', strike: 0 });

describe('the Centrifugo publisher (broker interface over the HTTP publish API)', () => {
  it('sends each publication as POST /api/publish with X-API-Key and { channel, data }', async () => {
    const centrifugo = await fakeCentrifugo();
    const publisher = new CentrifugoPublisher({ apiUrl: `${centrifugo.apiUrl}/`, apiKey: KEY });
    publisher.publish('public:BTCUSDT', tick(45012.5));
    publisher.publish('account:0b6f-uuid', { type: 'order', orderId: '7' });
    await publisher.whenIdle();
    expect(centrifugo.problems).toEqual([]);
    expect(centrifugo.received).toEqual([
      { channel: 'public:BTCUSDT', data: tick(45012.5) },
      { channel: 'account:0b6f-uuid', data: { type: 'order', orderId: '7' } },
    ]);
    expect(publisher.snapshot()).toEqual({ sent: 2, failed: 0, dropped: 0, queued: 0 });
  });

  it("keeps a channel's order while channels go in parallel, within maxInFlight", async () => {
    const centrifugo = await fakeCentrifugo(undefined, 5);
    const publisher = new CentrifugoPublisher({
      apiUrl: centrifugo.apiUrl,
      apiKey: KEY,
      maxInFlight: 3,
    });
    const channels = ['public:BTCUSDT', 'public:ETHUSDT', 'public:XAUUSD', 'public:EURUSD'];
    for (let i = 0; i < 20; i++) {
      for (const channel of channels) publisher.publish(channel, tick(i));
    }
    await publisher.whenIdle();
    expect(centrifugo.problems).toEqual([]);
    expect(centrifugo.received).toHaveLength(80);
    for (const channel of channels) {
      const prices = centrifugo.received
        .filter((r) => r.channel === channel)
        .map((r) => (r.data as { price: number }).price);
      expect(prices).toEqual(Array.from({ length: 20 }, (_, i) => i));
    }
    expect(centrifugo.maxInFlight()).toBeGreaterThan(1);
    expect(centrifugo.maxInFlight()).toBeLessThanOrEqual(3);
  });

  it('counts refusals ({ error } answers, HTTP errors, no server) and reports them, rate-limited', async () => {
    const centrifugo = await fakeCentrifugo((p) =>
      p.channel === 'public:BAD'
        ? { status: 200, body: { error: { code: 102, message: 'unknown channel' } } }
        : { status: 200, body: { result: {} } },
    );
    const warnings: string[] = [];
    const publisher = new CentrifugoPublisher({
      apiUrl: centrifugo.apiUrl,
      apiKey: KEY,
      warn: (m) => warnings.push(m),
    });
    publisher.publish('public:BAD', tick(1));
    publisher.publish('public:BAD', tick(2));
    publisher.publish('public:BTCUSDT', tick(3));
    await publisher.whenIdle();
    expect(publisher.snapshot()).toMatchObject({ sent: 1, failed: 2 });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('publish to public:BAD failed: error 102: unknown channel');

    const wrongKey = new CentrifugoPublisher({ apiUrl: centrifugo.apiUrl, apiKey: 'wrong' });
    wrongKey.publish('public:BTCUSDT', tick(4));
    await wrongKey.whenIdle();
    expect(wrongKey.snapshot()).toMatchObject({ sent: 0, failed: 1 });

    const nowhere = new CentrifugoPublisher({ apiUrl: 'http://127.0.0.1:9/api', apiKey: KEY });
    nowhere.publish('public:BTCUSDT', tick(5));
    await nowhere.whenIdle();
    expect(nowhere.snapshot()).toMatchObject({ sent: 0, failed: 1 });
  });

  it('bounds its queue while Centrifugo is slow: the oldest waiting publication of a channel goes', async () => {
    const centrifugo = await fakeCentrifugo(undefined, 30);
    const publisher = new CentrifugoPublisher({
      apiUrl: centrifugo.apiUrl,
      apiKey: KEY,
      maxInFlight: 1,
      maxQueued: 3,
    });
    for (let i = 0; i < 10; i++) publisher.publish('public:BTCUSDT', tick(i));
    expect(publisher.snapshot().queued).toBe(3);
    await publisher.whenIdle();
    const prices = centrifugo.received.map((r) => (r.data as { price: number }).price);
    // the first went at once; of the rest, the newest three were kept
    expect(prices).toEqual([0, 7, 8, 9]);
    expect(publisher.snapshot()).toMatchObject({ sent: 4, dropped: 6, queued: 0 });
  });

  it('delivers to local listeners too, like the in-process broker', async () => {
    const centrifugo = await fakeCentrifugo();
    const publisher = new CentrifugoPublisher({ apiUrl: centrifugo.apiUrl, apiKey: KEY });
    const heard: string[] = [];
    const stop = publisher.listen(({ channel }) => heard.push(channel));
    publisher.publish('public:ETHUSDT', tick(1));
    stop();
    publisher.publish('public:ETHUSDT', tick(2));
    expect(heard).toEqual(['public:ETHUSDT']);
    await waitFor(() => centrifugo.received.length === 2);
  });

  it("next to the node's own broker: local listeners as before, each publication once to Centrifugo", async () => {
    const centrifugo = await fakeCentrifugo();
    const publisher = new CentrifugoPublisher({ apiUrl: centrifugo.apiUrl, apiKey: KEY });
    const broker = alsoToCentrifugo(new InProcessBroker(), publisher);
    const heard: unknown[] = [];
    broker.listen(({ data }) => heard.push(data));
    broker.publish('public:XAUUSD', tick(2000));
    expect(heard).toEqual([tick(2000)]);
    await publisher.whenIdle();
    expect(centrifugo.received).toEqual([{ channel: 'public:XAUUSD', data: tick(2000) }]);
  });

  it("keeps the nodes' own messages (a session's end, printed lines) from Centrifugo", async () => {
    const centrifugo = await fakeCentrifugo();
    const publisher = new CentrifugoPublisher({ apiUrl: centrifugo.apiUrl, apiKey: KEY });
    const broker = alsoToCentrifugo(new InProcessBroker(), publisher);
    const heard: string[] = [];
    broker.listen(({ channel }) => heard.push(channel));
    broker.publish(SESSION_ENDED_CHANNEL, { sessionId: 5 });
    broker.publish(LOG_LINE_CHANNEL, { u: 1, c: 'tab', l: 'printed' });
    broker.publish('public:XAUUSD', tick(2000));
    await publisher.whenIdle();
    expect(heard).toEqual([SESSION_ENDED_CHANNEL, LOG_LINE_CHANNEL, 'public:XAUUSD']);
    expect(centrifugo.received).toEqual([{ channel: 'public:XAUUSD', data: tick(2000) }]);
  });
});
