import { describe, expect, it } from 'vitest';
import { breakpointOf, usesNarrowLayout } from './breakpoints';

describe('breakpoints', () => {
  it.each([
    [0, 'narrow'],
    [390, 'narrow'],
    [499, 'narrow'],
    [500, 'regular'],
    [768, 'regular'],
    [769, 'wide'],
    [1439, 'wide'],
    [1440, 'extraWide'],
    [2560, 'extraWide'],
  ] as const)('width %i is %s', (width, expected) => {
    expect(breakpointOf(width)).toBe(expected);
  });

  it('uses the narrow layout up to 768 px', () => {
    expect(usesNarrowLayout(breakpointOf(768))).toBe(true);
    expect(usesNarrowLayout(breakpointOf(769))).toBe(false);
  });
});
