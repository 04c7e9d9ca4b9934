/**
 * The order in which waiting runs start: round robin over owners (each owner's first waiting
 * run, oldest owner first, then each owner's second, …), so that one user's many runs never
 * stand in front of another user's one.
 */
export function queueOrder<T extends { owner: string; seq: number }>(waiting: readonly T[]): T[] {
  const rank = new Map<T, number>();
  const seen = new Map<string, number>();
  for (const waiter of [...waiting].sort((a, b) => a.seq - b.seq)) {
    const k = seen.get(waiter.owner) ?? 0;
    seen.set(waiter.owner, k + 1);
    rank.set(waiter, k);
  }
  return [...waiting].sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0) || a.seq - b.seq);
}
