// `npm run bench`: every benchmark next to a baseline measured in the same run, as ratios.
// `npm run bench -- --only=fanout,orders,cluster,backtest,ai,live-runs,optimize,browser,neighbours,alerts` picks some; fan-out options:
// `--connections=500,2000,5000 --rate=10 --seconds=10 --sample=50 --pairs=4 --warmup=2
// --baselines=ws-turn,ws` (bare ws with a message per turn; add `ws`, a message per publication)
// `--client-processes=K` (the light clients spread over K processes; default one per 2,500
// connections) `--rate-5000=5` (another rate at that size; any size, e.g. `--rate-2000=`)
// `--reference=<another checkout>/apps/server/src/modules/gateway/index.ts` (that gateway too,
// in the same pairs: before / after a change); neighbour operations:
// `--neighbours=optimization,import` (module names of bench/neighbours/operations; all when absent);
// optimisation: `--optimize-runs=4` (optimisations per setup on the same nodes, the first reported apart).
import { execSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { aiReport, runAiBench } from './ai/run.ts';
import { alertsReport, runAlertsBench } from './alerts/run.ts';
import { aiTaskReport, runAiTaskBench } from './ai/tasks.ts';
import { printBacktestBench, runBacktestBench } from './backtest/run.ts';
import { browserReport, runBrowserBench } from './browser/run.ts';
import { clusterReport, runClusterBench } from './cluster/run.ts';
import { FanoutSide, type FanoutMode, type FanoutResult } from './fanout/run.ts';
import {
  RATIO_FIELDS,
  ratiosOf,
  spreadOf,
  voidReason,
  within,
  type Ratios,
} from './fanout/summary.ts';
import { liveRunsReport, runLiveRunsBench } from './live-runs/run.ts';
import { optimizeReport, runOptimizeBench } from './optimize/run.ts';
import { ordersReport, runOrders } from './orders/run.ts';
import { neighboursReport, runNeighboursBench } from './neighbours/run.ts';
import { defaultSoakOptions, runSoak, SOAK_HEADER, soakVerdict } from './soak/run.ts';

const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value = ''] = arg.replace(/^--/, '').split('=');
    return [key ?? '', value] as const;
  }),
);
const only = new Set(
  (
    args.get('only') ??
    'fanout,orders,cluster,backtest,ai,live-runs,optimize,browser,neighbours,alerts'
  ).split(','),
);
const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** Open files a process may hold (`ulimit -n`): each fan-out process holds one per connection. */
function openFileLimit(): number {
  try {
    return Number(execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim());
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

const MODE_NAMES: Record<FanoutMode, string> = {
  gateway: 'gateway',
  reference: 'reference gateway',
  'ws-turn': 'bare ws, a message per turn',
  ws: 'bare ws, a message per publication',
};

/**
 * The client processes a size's light clients are spread over: one process per 2,500
 * connections by default, since a single process of 5,000 sockets is saturated on the 2 shared
 * cores (94–99 % busy even at load 1–2; at load 28–35 it fell more than the gateway's 35 s pong
 * limit behind, 2026-11-28). Both sides use the same layout.
 */
const clientProcessesFor = (connections: number) =>
  Number(args.get('client-processes') ?? Math.ceil(connections / 2500));

/** Publications/s per channel at a size: `--rate-<connections>=` if given, else `--rate=`. */
const rateFor = (connections: number) =>
  Number(args.get(`rate-${String(connections)}`) ?? args.get('rate') ?? 10);

async function fanout(): Promise<void> {
  const connectionCounts = (args.get('connections') ?? '500,2000,5000').split(',').map(Number);
  const seconds = Number(args.get('seconds') ?? 10);
  const sample = Number(args.get('sample') ?? 50);
  const pairs = Number(args.get('pairs') ?? args.get('runs') ?? 4);
  const warmup = Number(args.get('warmup') ?? 2);
  const baselines = (args.get('baselines') ?? 'ws-turn').split(',') as FanoutMode[];
  const reference = args.get('reference') ?? '';
  // the gateways measured: this checkout's and, with --reference, another's
  const ours: FanoutMode[] = reference ? ['gateway', 'reference'] : ['gateway'];
  // what is compared: each gateway with each baseline, and this gateway with the reference
  const compared: [FanoutMode, FanoutMode][] = [
    ...ours.flatMap((mode) => baselines.map((base): [FanoutMode, FanoutMode] => [mode, base])),
    ...(reference ? [['gateway', 'reference'] as [FanoutMode, FanoutMode]] : []),
  ];
  const label = ([mode, base]: [FanoutMode, FanoutMode]) =>
    `${MODE_NAMES[mode]} / ${MODE_NAMES[base]}`;
  const limit = openFileLimit();
  const layout = connectionCounts
    .map((n) => `${n}: ${rateFor(n)}/s, ${clientProcessesFor(n)} client processes`)
    .join('; ');
  console.log(
    `Live gateway fan-out: 5 channels, ${seconds} s slices; publications/s per channel and client processes by connections: ${layout}`,
  );
  console.log(
    `(all connections but ${sample} are light raw-protocol clients, spread evenly over the client processes; the ${sample} sampled, all in the first, use the official centrifuge client on the gateway, plain ws on the baselines; every side connected once per size with the same layout, then ${pairs} pairs of slices, the gateway's and the baselines' back to back, the other way round every other pair, each measured until all its messages arrived; load = 1-minute load average as the pair started; clients busy = event-loop utilisation of the busiest client process over the slice (from 95 % the clients were behind all along and the latencies are theirs); void = clients that busy, connections closed since connecting or messages missing 30 s after the publishing: the clients, not the server, were measured, so no ratio is taken)`,
  );
  console.log(
    '| connections | pair | load | server | delivered | msgs/s | sampled p50 ms | sampled p99 ms | light p50 ms | light p99 ms | server CPU ms / 1,000 msgs | pings seen | clients busy | void |',
  );
  console.log('|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  const summaries: string[] = [];
  for (const connections of connectionCounts) {
    if (connections + 256 > limit) {
      console.log(
        `| ${connections} | | | skipped: ${connections} connections need more than the ${limit} open files a process may hold (ulimit -n) | | | | | | | | | | |`,
      );
      continue;
    }
    const rate = rateFor(connections);
    const ratios = new Map<string, Ratios[]>(compared.map((pair) => [label(pair), []]));
    const voids = new Map<string, number>(compared.map((pair) => [label(pair), 0]));
    // every side connected once and kept: their slices alternate within seconds, so a load
    // that comes and goes on the shared machine weighs on both alike
    const sides = new Map<FanoutMode, FanoutSide>();
    try {
      for (const mode of [...ours, ...baselines]) {
        const side = await FanoutSide.start(
          mode,
          connections,
          sample,
          reference,
          clientProcessesFor(connections),
        );
        sides.set(mode, side);
        if (warmup > 0) await side.slice(rate, warmup); // not counted: compiles the hot paths
      }
      for (let pair = 1; pair <= pairs; pair++) {
        // back to back, the other way round every other pair
        const order: FanoutMode[] =
          pair % 2 === 1 ? [...ours, ...baselines] : [...ours, ...baselines].reverse();
        const load = fmt(loadavg()[0] ?? 0);
        const results = new Map<FanoutMode, FanoutResult>();
        for (const mode of order) {
          const side = sides.get(mode);
          if (side) results.set(mode, await side.slice(rate, seconds));
        }
        for (const mode of [...ours, ...baselines]) {
          const r = results.get(mode);
          if (!r) continue;
          console.log(
            `| ${connections} | ${pair} | ${load} | ${MODE_NAMES[mode]} | ${fmt((100 * r.received) / r.expected)} % | ${fmt(r.messagesPerSecond, 0)} | ` +
              `${fmt(r.p50Ms, 2)} | ${fmt(r.p99Ms, 2)} | ${fmt(r.lightP50Ms, 2)} | ${fmt(r.lightP99Ms, 2)} | ${fmt(r.serverCpuMsPer1000, 2)} | ${r.pings} | ${fmt(100 * r.clientBusy, 0)} % | ${voidReason(r) ?? ''} |`,
          );
        }
        for (const compare of compared) {
          const [mine, base] = compare.map((mode) => results.get(mode));
          if (!mine || !base) continue;
          if (voidReason(mine) ?? voidReason(base)) {
            voids.set(label(compare), (voids.get(label(compare)) ?? 0) + 1);
            console.log(
              `| ${connections} | ${pair} | | ratio ${label(compare)} | | | | | | | | | | void |`,
            );
            continue;
          }
          const r = ratiosOf(mine, base);
          ratios.get(label(compare))?.push(r);
          console.log(
            `| ${connections} | ${pair} | | ratio ${label(compare)} | | ${fmt(r.messagesPerSecond, 2)}× | ` +
              `${fmt(r.p50Ms, 2)}× | ${fmt(r.p99Ms, 2)}× | ${fmt(r.lightP50Ms, 2)}× | ${fmt(r.lightP99Ms, 2)}× | ${fmt(r.serverCpuMsPer1000, 2)}× | | | |`,
          );
        }
      }
    } finally {
      for (const side of sides.values()) side.close();
    }
    for (const [compare, list] of ratios) {
      const voided = voids.get(compare) ?? 0;
      if (list.length === 0) {
        if (voided > 0) {
          summaries.push(
            `| ${connections} | ${compare} | 0 | ${voided} | ${RATIO_FIELDS.map(() => 'void').join(' | ')} | |`,
          );
        }
        continue;
      }
      const cells = RATIO_FIELDS.map((field) => spreadOf(list, field));
      summaries.push(
        `| ${connections} | ${compare} | ${list.length} | ${voided} | ${cells.join(' | ')} | ` +
          `${within(list, 'p99Ms', 1.2)} of ${list.length}, ${within(list, 'lightP99Ms', 1.2)} of ${list.length} |`,
      );
    }
  }
  console.log('');
  console.log('Median ratio over the valid pairs (min–max):');
  console.log(
    '| connections | compared | pairs | void pairs | msgs/s | sampled p50 | sampled p99 | light p50 | light p99 | server CPU / 1,000 msgs | p99 ≤ 1.2×: sampled, light |',
  );
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const line of summaries) console.log(line);
}

if (only.has('fanout')) await fanout();
if (only.has('orders')) {
  // before (a transaction per order) and after (group commit), each with its own baseline
  for (const commit of ['single', 'group'] as const) {
    console.log('');
    for (const line of ordersReport(await runOrders({ commit, clients: 16 }))) console.log(line);
  }
}
// issue 17: PostgreSQL and Redis started by the bench, 1 and 2 API nodes, feed takeover
if (only.has('cluster')) {
  console.log('');
  for (const line of clusterReport(await runClusterBench())) console.log(line);
}
if (only.has('backtest')) {
  console.log('');
  printBacktestBench(await runBacktestBench());
}
if (only.has('optimize')) {
  console.log('');
  const runs = args.get('optimize-runs');
  for (const line of optimizeReport(await runOptimizeBench(runs ? { runs: Number(runs) } : {})))
    console.log(line);
}
if (only.has('ai')) {
  console.log('');
  for (const line of aiReport(await runAiBench())) console.log(line);
  console.log('');
  for (const line of aiTaskReport(await runAiTaskBench())) console.log(line);
}
// not in the default set: `--only=soak [--minutes=30] [--users=4]` (30 minutes by default)
if (only.has('soak')) {
  const minutes = Number(args.get('minutes') ?? 30);
  const options = { ...defaultSoakOptions(minutes), users: Number(args.get('users') ?? 4) };
  console.log('');
  console.log(
    `Soak: ${options.users} simulated users (live ticks, an order round trip each second, a backtest every 20 s, a chat every 15 s) for ${minutes} min`,
  );
  for (const line of SOAK_HEADER) console.log(line);
  const result = await runSoak(options);
  for (const line of soakVerdict(result)) console.log(line);
  if (!result.passed) process.exitCode = 1;
}
if (only.has('live-runs')) {
  console.log('');
  for (const line of liveRunsReport(await runLiveRunsBench())) console.log(line);
}
if (only.has('alerts')) {
  console.log('');
  for (const line of alertsReport(await runAlertsBench())) console.log(line);
}
if (only.has('neighbours')) {
  console.log('');
  const names = args.get('neighbours')?.split(',').filter(Boolean);
  for (const line of neighboursReport(await runNeighboursBench(names))) console.log(line);
}
if (only.has('browser')) {
  console.log('');
  for (const line of browserReport(await runBrowserBench())) console.log(line);
}
