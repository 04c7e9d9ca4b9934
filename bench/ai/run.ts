import { postJson, withTestModelProduct } from '../support/server.ts';

/*
 * The chat relay's overhead: time to the first streamed token through POST /api/ai/chat of
 * the real server (apps/server/src/main.ts, provider `ollama` pointed at the local
 * OpenAI-compatible test server), next to a direct request to that test server in the same
 * run; and tokens per second relayed from a fast upstream (no pause between pieces), next
 * to the same stream read directly.
 */

export type AiBenchOptions = {
  /** Sequential chats measured per path for the first-token time (after 5 warm-up ones). */
  firstTokenRuns: number;
  /** Pieces (tokens) of the throughput stream. */
  tokens: number;
  /** Throughput streams per path; the median is reported. */
  throughputRuns: number;
};

export const DEFAULT_AI_BENCH_OPTIONS: AiBenchOptions = {
  firstTokenRuns: 50,
  tokens: 20_000,
  throughputRuns: 3,
};

export type AiBenchResult = {
  firstTokenRuns: number;
  direct: { p50Ms: number; p90Ms: number };
  relayed: { p50Ms: number; p90Ms: number };
  tokens: number;
  directTokensPerSecond: number;
  relayedTokensPerSecond: number;
  /** Tokens the relay delivered of those sent, over all throughput runs (should be 100 %). */
  relayedDelivered: number;
};

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/**
 * Reads a streamed answer to the end; returns the milliseconds from `sent` to the first
 * chunk that holds `firstMarker`, and how many times `countMarker` occurs.
 */
async function readStream(
  res: Response,
  sent: number,
  firstMarker: string,
  countMarker: string,
): Promise<{ firstMs: number; count: number; endMs: number }> {
  const reader = res.body?.getReader();
  if (!reader) throw new Error(`no body (HTTP ${res.status})`);
  const decoder = new TextDecoder();
  let firstMs = Number.NaN;
  let count = 0;
  let tail = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const text = tail + decoder.decode(value, { stream: true });
    if (Number.isNaN(firstMs) && text.includes(firstMarker)) firstMs = performance.now() - sent;
    // count whole markers only: keep a partial one for the next read
    const cut = text.lastIndexOf('\n');
    const whole = cut === -1 ? '' : text.slice(0, cut);
    tail = cut === -1 ? text : text.slice(cut);
    count += whole.split(countMarker).length - 1;
  }
  count += tail.split(countMarker).length - 1;
  return { firstMs, count, endMs: performance.now() - sent };
}

export async function runAiBench(options: Partial<AiBenchOptions> = {}): Promise<AiBenchResult> {
  const o = { ...DEFAULT_AI_BENCH_OPTIONS, ...options };
  const env = { AI_CHAT_RATE_LIMIT: '100000' };
  return withTestModelProduct('ct-bench-ai-', env, async ({ origin, base, cookie }) => {
    const script = (scripts: unknown[]) =>
      postJson(`${base.replace(/\/v1$/, '')}/__script`, { scripts });
    const chatBody = { messages: [{ role: 'user', content: 'Hello' }] };
    const direct = () =>
      postJson(`${base}/chat/completions`, { model: 'test-model', stream: true, ...chatBody });
    const relayed = () => postJson(`${origin}/api/ai/chat`, chatBody, cookie);

    // first token: one reasoning piece, one content piece, both paths alternating
    const small = { reasoning: ['Thinking'], content: ['Hello'] };
    const warmUp = 5;
    await script(Array.from({ length: 2 * (o.firstTokenRuns + warmUp) }, () => small));
    const directMs: number[] = [];
    const relayedMs: number[] = [];
    for (let i = 0; i < o.firstTokenRuns + warmUp; i++) {
      let sent = performance.now();
      const d = await readStream(await direct(), sent, 'reasoning_content', '\n\n');
      sent = performance.now();
      const r = await readStream(await relayed(), sent, 'event: reasoning', '\n\n');
      if (i < warmUp) continue;
      directMs.push(d.firstMs);
      relayedMs.push(r.firstMs);
    }

    // throughput: many content pieces without pauses
    const big = { content: Array.from({ length: o.tokens }, (_, i) => ` t${i}`) };
    const directRates: number[] = [];
    const relayedRates: number[] = [];
    let delivered = 0;
    for (let run = 0; run < o.throughputRuns; run++) {
      await script([big, big]);
      let sent = performance.now();
      const d = await readStream(await direct(), sent, '"content":" t0"', '"content":" t');
      directRates.push(d.count / ((d.endMs - d.firstMs) / 1000));
      sent = performance.now();
      const r = await readStream(await relayed(), sent, 'event: content', 'event: content');
      relayedRates.push(r.count / ((r.endMs - r.firstMs) / 1000));
      delivered += r.count;
    }

    return {
      firstTokenRuns: o.firstTokenRuns,
      direct: { p50Ms: percentile(directMs, 50), p90Ms: percentile(directMs, 90) },
      relayed: { p50Ms: percentile(relayedMs, 50), p90Ms: percentile(relayedMs, 90) },
      tokens: o.tokens,
      directTokensPerSecond: percentile(directRates, 50),
      relayedTokensPerSecond: percentile(relayedRates, 50),
      relayedDelivered: delivered / (o.tokens * o.throughputRuns),
    };
  });
}

/** The report lines of a run, as bench/run.ts prints its tables. */
export function aiReport(r: AiBenchResult): string[] {
  const fmt = (n: number, digits = 1) => n.toFixed(digits);
  return [
    `AI chat relay against the local OpenAI-compatible test server (${r.firstTokenRuns} sequential chats per path; ${r.tokens} tokens per throughput stream)`,
    '| measure | direct to test server | through POST /api/ai/chat | ratio relay / direct |',
    '|---|---:|---:|---:|',
    `| first token p50 ms | ${fmt(r.direct.p50Ms, 2)} | ${fmt(r.relayed.p50Ms, 2)} | ${fmt(r.relayed.p50Ms / r.direct.p50Ms, 2)}× |`,
    `| first token p90 ms | ${fmt(r.direct.p90Ms, 2)} | ${fmt(r.relayed.p90Ms, 2)} | ${fmt(r.relayed.p90Ms / r.direct.p90Ms, 2)}× |`,
    `| tokens per second (fast upstream) | ${fmt(r.directTokensPerSecond, 0)} | ${fmt(r.relayedTokensPerSecond, 0)} | ${fmt(r.relayedTokensPerSecond / r.directTokensPerSecond, 2)}× |`,
    `| tokens relayed of those sent | | ${fmt(100 * r.relayedDelivered)} % | |`,
  ];
}
