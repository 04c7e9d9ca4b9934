/** An entry of the chart's left toolbar: a button, or a divider between groups. */
export type ToolbarEntry = { kind: 'tool' } | { kind: 'divider' };

export type ToolbarSizes = {
  /** Height of a button, with the gap after it. */
  tool: number;
  /** Height of a divider, with its margins and the gap after it. */
  divider: number;
  /** The toolbar's own vertical padding. */
  padding: number;
};

/**
 * How many entries (in order) fit in a toolbar `height` px high. When not all fit, room is
 * kept for the 'More tools' button that holds the rest, and a divider is never the last
 * entry shown. Everything shows while the height is not known.
 */
export function toolsThatFit(
  height: number | null,
  entries: readonly ToolbarEntry[],
  sizes: ToolbarSizes,
): number {
  if (height === null) return entries.length;
  const size = (e: ToolbarEntry) => (e.kind === 'tool' ? sizes.tool : sizes.divider);
  const total = entries.reduce((sum, e) => sum + size(e), sizes.padding);
  if (total <= height) return entries.length;
  let used = sizes.padding + sizes.tool; // the 'More tools' button
  let count = 0;
  while (count < entries.length && used + size(entries[count]!) <= height) {
    used += size(entries[count]!);
    count++;
  }
  while (count > 0 && entries[count - 1]!.kind === 'divider') count--;
  return count;
}
