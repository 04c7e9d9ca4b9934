// Alerts benchmark: the real server process (apps/server/src/main.ts, one process with every
// role: the feed and its alert engine) on the wall clock, the simulated market at the feed's
// own tick rate. In one run, first with no alerts, then with `alerts` active price alerts
// spread over the catalogue (levels 1 to 300 ticks around each instrument's price, crossing
// either way, `every_time`, so crossings happen all along):
// - tick-to-fire: a live client subscribed to every instrument and to the user's alert
//   channel; for each `alert_fired`, the time from receiving the tick that crossed (the last
//   tick of that symbol at that price before the event) to receiving the event, p50 / p99;
// - the server's CPU per published tick (utime + stime from /proc over the window ÷ the bid
//   ticks the client received), with and without alerts.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { INSTRUMENTS, alertEventSchema, liveTokenSchema } from '@ct/domain';
import { Centrifuge, type PublicationContext } from 'centrifuge';
import WebSocket from 'ws';
import { loginDemo, postJson, startProduct, stopChild } from '../support/server.ts';

export type AlertsBenchOptions = { alerts: number; seconds: number; concurrency: number };
export const DEFAULT_ALERTS_BENCH_OPTIONS: AlertsBenchOptions = {
  alerts: 10_000,
  seconds: 20,
  concurrency: 8,
};

type Window = { ticks: number; cpuMs: number; seconds: number };
export type AlertsBenchResult = AlertsBenchOptions & {
  symbols: number;
  created: number;
  createSeconds: number;
  baseline: Window;
  withAlerts: Window;
  fires: number;
  fireP50Ms: number;
  fireP99Ms: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** CPU time (ms) a process has used so far, from /proc/<pid>/stat (utime + stime). */
function cpuMsOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

export async function runAlertsBench(
  options: AlertsBenchOptions = DEFAULT_ALERTS_BENCH_OPTIONS,
): Promise<AlertsBenchResult> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-bench-alerts-'));
  let server: ChildProcess | undefined;
  let client: Centrifuge | undefined;
  try {
    const product = await startProduct(root, { ALERTS_MAX_PER_USER: String(options.alerts) });
    server = product.child;
    const pid = server.pid ?? 0;
    const { origin } = product;
    const { cookie } = await loginDemo(origin);
    if (!cookie) throw new Error('demo login failed');
    const tokenRes = await fetch(`${origin}/api/alerts/live-token`, {
      headers: { cookie: `ct_sid=${cookie}` },
    });
    const token = liveTokenSchema.parse(await tokenRes.json());
    // fresh tokens when the client asks (creating the alerts takes longer than a token lasts)
    const freshToken = async () =>
      liveTokenSchema.parse(
        await (
          await fetch(`${origin}/api/alerts/live-token`, {
            headers: { cookie: `ct_sid=${cookie}` },
          })
        ).json(),
      );

    // one client: every instrument's ticks and the user's alert events, with arrival times
    const symbols = [...INSTRUMENTS.keys()];
    const lastBid = new Map<string, number>();
    /** Per symbol, the arrival time of the newest tick at each price. */
    const arrivals = new Map<string, Map<number, number>>();
    let ticks = 0;
    const delays: number[] = [];
    let fires = 0;
    let measuring = false;
    client = new Centrifuge(origin.replace(/^http/, 'ws') + '/connection/websocket', {
      websocket: WebSocket,
      data: { type: 1 },
      token: token.connectToken,
      getToken: async () => (await freshToken()).connectToken,
    });
    for (const symbol of symbols) {
      const sub = client.newSubscription(`public:${symbol}`);
      sub.on('publication', (ctx: PublicationContext) => {
        const message = ctx.data as { price: number; entry: string };
        if (message.entry !== '0') return;
        ticks += 1;
        lastBid.set(symbol, message.price);
        let byPrice = arrivals.get(symbol);
        if (!byPrice) arrivals.set(symbol, (byPrice = new Map()));
        byPrice.set(message.price, performance.now());
        if (byPrice.size > 200) byPrice.delete(byPrice.keys().next().value as number);
      });
      sub.subscribe();
    }
    const events = client.newSubscription(token.channel, {
      token: token.subscriptionToken,
      getToken: async () => (await freshToken()).subscriptionToken,
    });
    events.on('publication', (ctx: PublicationContext) => {
      const at = performance.now();
      const event = alertEventSchema.safeParse(ctx.data);
      if (!event.success || !measuring) return;
      fires += 1;
      const tickAt = arrivals.get(event.data.entry.symbol_id)?.get(event.data.entry.price);
      if (tickAt !== undefined) delays.push(at - tickAt);
    });
    events.subscribe();
    client.connect();

    const measure = async (): Promise<Window> => {
      const ticks0 = ticks;
      const cpu0 = cpuMsOf(pid);
      const started = performance.now();
      await sleep(options.seconds * 1000);
      return {
        ticks: ticks - ticks0,
        cpuMs: cpuMsOf(pid) - cpu0,
        seconds: (performance.now() - started) / 1000,
      };
    };
    // warm-up: the simulator builds each instrument's day, the client gets its first prices
    await sleep(3000);
    const baseline = await measure();

    // the alerts: round robin over the instruments that tick, levels ±1..300 ticks around
    const live = symbols.filter((s) => lastBid.has(s));
    const createdAt = performance.now();
    let created = 0;
    let next = 0;
    const worker = async () => {
      while (next < options.alerts) {
        const i = next++;
        const symbol = live[i % live.length] as string;
        const tick = INSTRUMENTS.get(symbol)?.min_price_tick ?? 0.01;
        const offset = (1 + (i % 300)) * (i % 2 === 0 ? 1 : -1);
        const level = Math.round(((lastBid.get(symbol) ?? 0) + offset * tick) / tick) * tick;
        const res = await postJson(
          `${origin}/api/alerts`,
          {
            symbol_id: symbol,
            kind: 'price',
            condition: 'crossing',
            level: Number(level.toFixed(10)),
            frequency: 'every_time',
          },
          cookie,
        );
        if (res.status !== 201) throw new Error(`alert refused: ${await res.text()}`);
        created += 1;
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    const createSeconds = (performance.now() - createdAt) / 1000;
    await sleep(2000);
    measuring = true;
    const withAlerts = await measure();
    measuring = false;
    return {
      ...options,
      symbols: live.length,
      created,
      createSeconds,
      baseline,
      withAlerts,
      fires,
      fireP50Ms: percentile(delays, 50),
      fireP99Ms: percentile(delays, 99),
    };
  } finally {
    client?.disconnect();
    await stopChild(server);
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export function alertsReport(r: AlertsBenchResult): string[] {
  const perTick = (w: Window) => (w.ticks > 0 ? (w.cpuMs * 1000) / w.ticks : 0);
  const fmt = (n: number, digits = 1) => n.toFixed(digits);
  return [
    `Alerts: the feed with ${r.created} active price alerts over ${r.symbols} ticking instruments vs none, ${r.seconds} s each (created in ${fmt(r.createSeconds)} s)`,
    '| feed | bid ticks | ticks/s | server CPU % | CPU µs per tick | fires | tick-to-fire p50 ms | p99 ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    `| no alerts | ${r.baseline.ticks} | ${fmt(r.baseline.ticks / r.baseline.seconds, 0)} | ${fmt((100 * r.baseline.cpuMs) / (r.baseline.seconds * 1000))} | ${fmt(perTick(r.baseline), 0)} | | | |`,
    `| ${r.created} alerts | ${r.withAlerts.ticks} | ${fmt(r.withAlerts.ticks / r.withAlerts.seconds, 0)} | ${fmt((100 * r.withAlerts.cpuMs) / (r.withAlerts.seconds * 1000))} | ${fmt(perTick(r.withAlerts), 0)} | ${r.fires} | ${fmt(r.fireP50Ms, 2)} | ${fmt(r.fireP99Ms, 2)} |`,
    `| ratio alerts / none | | | | ${fmt(perTick(r.withAlerts) / Math.max(1e-9, perTick(r.baseline)), 2)}× | | | |`,
  ];
}
