// Latencies as a log-scale histogram (buckets 1 % apart), so that the client processes of one
// side can send theirs to the orchestrator in a few thousand numbers and the percentiles be
// taken over the union of all their connections. 1 % is far below the slice-to-slice noise of
// the ratios the bench reports.

/** The smallest latency told apart (ms); anything below, clock skew included, falls in it. */
const FLOOR_MS = 0.001;
const GROWTH = Math.log(1.01);

/** Bucket index → count, sparse: a slice fills a few hundred of them. */
export type Histogram = Record<number, number>;

const bucketOf = (ms: number) => (ms <= FLOOR_MS ? 0 : Math.ceil(Math.log(ms / FLOOR_MS) / GROWTH));

/** A bucket's upper bound: a percentile is reported at most 1 % high. */
const upperBoundOf = (bucket: number) => FLOOR_MS * Math.exp(bucket * GROWTH);

export function record(histogram: Histogram, ms: number): void {
  const bucket = bucketOf(ms);
  histogram[bucket] = (histogram[bucket] ?? 0) + 1;
}

export function merge(histograms: readonly Histogram[]): Histogram {
  const merged: Histogram = {};
  for (const histogram of histograms) {
    for (const [bucket, count] of Object.entries(histogram)) {
      merged[Number(bucket)] = (merged[Number(bucket)] ?? 0) + count;
    }
  }
  return merged;
}

/** The latency below which a share `q` of the recorded ones lie (0 when none). */
export function percentile(histogram: Histogram, q: number): number {
  const buckets = Object.entries(histogram)
    .map(([bucket, count]) => [Number(bucket), count] as const)
    .sort((a, b) => a[0] - b[0]);
  const total = buckets.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return 0;
  // the same rank as the sorted array's `floor(q * n)`th element
  const rank = Math.min(total - 1, Math.floor(q * total));
  let seen = 0;
  for (const [bucket, count] of buckets) {
    seen += count;
    if (seen > rank) return upperBoundOf(bucket);
  }
  return 0;
}
