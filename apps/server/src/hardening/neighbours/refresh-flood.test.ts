import { expect, it } from 'vitest';
import WebSocket from 'ws';
import { ROUNDS_WHILE_HEAVY, call, describeNeighbour, whileHeavy, type Login } from './support.ts';

/*
 * A flood of `refresh` commands with a live token (each one verifies the JWT and looks the
 * login session up) over the live gateway: the heavy user sends 120 messages of 200 refresh
 * commands on a connection, and connects again whenever it is cut, as a looping client
 * would, until the neighbour has had its rounds. Each flooding connection must be cut with
 * 3013 (too many requests), and the neighbour's rounds go on meanwhile.
 */

const MESSAGES = 120;
const REFRESHES_PER_MESSAGE = 200;
/** A bound on the reconnections, so a server that never serves the neighbour fails the test. */
const MAX_CONNECTIONS = 500;

/** The connect token for the user's account, as the web client gets it. */
async function connectToken(url: string, who: Login): Promise<string> {
  const res = await call(
    url,
    who,
    `/api/live/token?uuid=${who.uuid}&token=${encodeURIComponent(who.token)}`,
  );
  if (res.status !== 200) throw new Error(`live token answered ${res.status}`);
  return ((await res.json()) as { connectToken: string }).connectToken;
}

/**
 * One flooding connection: connect with the token, send the refresh messages while the socket
 * is open; ends when the server closes it (its code) or has answered every command (null).
 */
async function floodOnce(url: string, token: string, sent: () => void): Promise<number | null> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/connection/websocket`);
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let answered = 0;
  let onAnswer = () => {};
  ws.on('message', (data) => {
    answered += data.toString().split('\n').filter(Boolean).length;
    onAnswer();
  });
  ws.send(JSON.stringify({ id: 1, connect: { token } }));
  await Promise.race([new Promise<void>((resolve) => (onAnswer = resolve)), closed]);
  let id = 2;
  for (let m = 0; m < MESSAGES && ws.readyState === WebSocket.OPEN; m++) {
    const lines: string[] = [];
    for (let i = 0; i < REFRESHES_PER_MESSAGE; i++, id++) {
      lines.push(JSON.stringify({ id, refresh: { token } }));
    }
    ws.send(lines.join('\n'));
  }
  sent();
  const everyAnswer = new Promise<null>((resolve) => {
    onAnswer = () => {
      if (answered >= id - 1) resolve(null);
    };
  });
  const code = await Promise.race([closed, everyAnswer]);
  if (code === null) ws.terminate();
  return code;
}

describeNeighbour('the live gateway', { name: 'refresh-flood' }, (suite) => {
  it('a flood of refresh commands is cut with 3013 while the neighbour is served', async () => {
    const { url, heavy } = suite.server;
    const token = await connectToken(url, heavy);
    const codes: (number | null)[] = [];
    let rounds = 0;
    let markStarted = () => {};
    const started = new Promise<void>((resolve) => (markStarted = resolve));

    const outcome = await whileHeavy(
      async () => {
        // one round more than asked, so the last one asked is surely counted before the end
        while (rounds <= ROUNDS_WHILE_HEAVY && codes.length < MAX_CONNECTIONS) {
          const code = await floodOnce(url, token, markStarted);
          codes.push(code);
          if (code !== 3013) break; // a flood the server did not cut: no use going on
        }
        markStarted();
      },
      async () => {
        await suite.round();
        rounds += 1;
      },
      () => started,
    );

    expect(codes.length).toBeGreaterThan(0);
    expect(new Set(codes)).toEqual(new Set([3013]));
    expect(outcome.roundsBeforeHeavyEnded).toBeGreaterThanOrEqual(ROUNDS_WHILE_HEAVY);
  }, 180_000);
});
