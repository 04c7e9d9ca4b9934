import type { InstrumentGroup } from '@ct/domain';

/** How well an instrument matches a query: symbol prefix, symbol, name; null: no match. */
export function matchRank(id: string, name: string, q: string): number | null {
  const symbol = id.toLowerCase();
  if (symbol.startsWith(q)) return 0;
  if (symbol.includes(q)) return 1;
  if (name.toLowerCase().includes(q)) return 2;
  return null;
}

/**
 * Groups with only the instruments whose symbol or name contains the query, symbol
 * matches first within each group; groups without a match are left out.
 */
export function filterGroups(groups: readonly InstrumentGroup[], query: string): InstrumentGroup[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...groups];
  return groups
    .map((g) => ({
      ...g,
      children: g.children
        .map((c) => ({ c, rank: matchRank(c.id, c.name, q) }))
        .filter((x): x is { c: typeof x.c; rank: number } => x.rank !== null)
        .sort((a, b) => a.rank - b.rank)
        .map((x) => x.c),
    }))
    .filter((g) => g.children.length > 0);
}
