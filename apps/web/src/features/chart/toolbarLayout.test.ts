import { describe, expect, it } from 'vitest';
import { toolsThatFit, type ToolbarEntry } from './toolbarLayout';

const tool: ToolbarEntry = { kind: 'tool' };
const divider: ToolbarEntry = { kind: 'divider' };
// Candles, Line | Fit, Reset | Buy, Sell | Code editor
const entries = [tool, tool, divider, tool, tool, divider, tool, tool, divider, tool];
const sizes = { tool: 34, divider: 11, padding: 8 };

describe('toolsThatFit', () => {
  it('shows every tool when they fit or the height is not known', () => {
    expect(toolsThatFit(null, entries, sizes)).toBe(10);
    expect(toolsThatFit(7 * 34 + 3 * 11 + 8, entries, sizes)).toBe(10);
  });

  it('keeps room for the More tools button when they do not all fit', () => {
    // 4 charts at 1024 x 768 leave about 178 px: Candles, Line, Fit, then More tools.
    const shown = toolsThatFit(178, entries, sizes);
    expect(shown).toBe(4);
    const used = 8 + 34 * 3 + 11 + 34;
    expect(used).toBeLessThanOrEqual(178);
  });

  it('never ends on a divider and may leave only the More tools button', () => {
    expect(toolsThatFit(8 + 34 * 3 + 11, entries, sizes)).toBe(2);
    expect(toolsThatFit(40, entries, sizes)).toBe(0);
  });
});
