// `npm run bench`: every benchmark next to a baseline measured in the same run, as ratios.
// `npm run bench -- --only=fanout,orders,cluster,backtest,ai,live-runs,optimize,browser,neighbours,alerts` picks some; fan-out options:
// `--connections=500,2000,5000 --rate=10 --seconds=10 --sample=50`; neighbour operations:
// `--neighbours=optimization,import` (module names of bench/neighbours/operations; all when absent).
import { aiReport, runAiBench } from './ai/run.ts';
import { alertsReport, runAlertsBench } from './alerts/run.ts';
import { aiTaskReport, runAiTaskBench } from './ai/tasks.ts';
import { printBacktestBench, runBacktestBench } from './backtest/run.ts';
import { browserReport, runBrowserBench } from './browser/run.ts';
import { clusterReport, runClusterBench } from './cluster/run.ts';
import { runFanout } from './fanout/run.ts';
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

async function fanout(): Promise<void> {
  const connectionCounts = (args.get('connections') ?? '500,2000,5000').split(',').map(Number);
  const rate = Number(args.get('rate') ?? 10);
  const seconds = Number(args.get('seconds') ?? 10);
  const sample = Number(args.get('sample') ?? 50);
  console.log(`Live gateway fan-out: 5 channels, ${rate} publications/s per channel, ${seconds} s`);
  console.log(
    `(all connections but ${sample} are light raw-protocol clients; the ${sample} sampled use the official centrifuge client on the gateway, plain ws on the baseline)`,
  );
  console.log(
    '| connections | server | delivered | msgs/s | sampled p50 ms | sampled p99 ms | light p50 ms | light p99 ms |',
  );
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|');
  for (const connections of connectionCounts) {
    const ours = await runFanout('gateway', connections, rate, seconds, sample);
    const base = await runFanout('ws', connections, rate, seconds, sample);
    for (const r of [ours, base]) {
      console.log(
        `| ${r.connections} | ${r.mode === 'gateway' ? 'gateway' : 'bare ws broadcast'} | ` +
          `${fmt((100 * r.received) / r.expected)} % | ${fmt(r.messagesPerSecond, 0)} | ${fmt(r.p50Ms, 2)} | ${fmt(r.p99Ms, 2)} | ${fmt(r.lightP50Ms, 2)} | ${fmt(r.lightP99Ms, 2)} |`,
      );
    }
    console.log(
      `| ${connections} | ratio gateway / baseline | | ${fmt(ours.messagesPerSecond / base.messagesPerSecond, 2)}× | ` +
        `${fmt(ours.p50Ms / base.p50Ms, 2)}× | ${fmt(ours.p99Ms / base.p99Ms, 2)}× | ${fmt(ours.lightP50Ms / base.lightP50Ms, 2)}× | ${fmt(ours.lightP99Ms / base.lightP99Ms, 2)}× |`,
    );
  }
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
  for (const line of optimizeReport(await runOptimizeBench())) console.log(line);
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
