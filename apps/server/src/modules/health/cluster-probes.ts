import type { Readiness } from './readiness.ts';

/** What `/readyz` reads of the process's cluster (modules/cluster/cluster.ts). */
export type ClusterView = {
  /** The Redis connection, null without REDIS_URL. */
  readonly redis: unknown;
  /** Both Redis connections are up (true without Redis). */
  readonly redisReady: boolean;
  /** Whether some feed is active (this process or another). */
  feedLeader(): Promise<{ known: boolean }>;
};

/**
 * The cluster's checks of `/readyz`: Redis (when REDIS_URL is set) and "a feed leader is
 * known" (an api node without an active feed would serve stale quotes). main.ts calls it
 * once the cluster is attached.
 */
export function registerClusterProbes(readiness: Readiness, cluster: ClusterView): void {
  if (cluster.redis) {
    readiness.register('redis', () => (cluster.redisReady ? null : 'not connected'));
  }
  readiness.register('feed', async () =>
    (await cluster.feedLeader()).known ? null : 'no active feed (the election has no leader)',
  );
}
