import WebSocket from 'ws';
import type { BenchContext, BenchLogin, HeavyOperation } from '../types.ts';

/*
 * A flood of live-token `refresh` commands over the live gateway (each one verifies the JWT
 * and looks the login session up): per connection 120 WebSocket messages of 200 refresh
 * commands; the flooder connects again whenever the server cuts it (3013 too many requests),
 * as a looping client would, CONNECTIONS times in all.
 */

const MESSAGES = 120;
const REFRESHES_PER_MESSAGE = 200;
const CONNECTIONS = 50;

/** The connect token for the user's account, as the web client gets it. */
async function connectToken(url: string, who: BenchLogin): Promise<string> {
  const res = await fetch(
    `${url}/api/live/token?uuid=${who.uuid}&token=${encodeURIComponent(who.token)}`,
    { headers: { cookie: `ct_sid=${who.cookie}` } },
  );
  if (res.status !== 200) throw new Error(`live token answered ${res.status}`);
  return ((await res.json()) as { connectToken: string }).connectToken;
}

/** One flooding connection; ends when the server closes it or has answered every command. */
async function floodOnce(url: string, token: string): Promise<void> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/connection/websocket`);
  const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
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
  const everyAnswer = new Promise<void>((resolve) => {
    onAnswer = () => {
      if (answered >= id - 1) resolve();
    };
  });
  await Promise.race([closed, everyAnswer]);
  ws.terminate();
}

export const operation: HeavyOperation = {
  name: `Live refresh flood, ${MESSAGES} × ${REFRESHES_PER_MESSAGE} refresh commands on each of ${CONNECTIONS} connections`,
  async run({ url, heavy }: BenchContext) {
    const token = await connectToken(url, heavy);
    for (let i = 0; i < CONNECTIONS; i++) await floodOnce(url, token);
  },
};
