import { useSyncExternalStore } from 'react';

export type Breakpoint = 'narrow' | 'regular' | 'wide' | 'extraWide';

/** Upper bounds of the width bands in CSS pixels (spec section 9: 499, 768, 1439). */
export const BREAKPOINT_MAX = { narrow: 499, regular: 768, wide: 1439 } as const;

/** Width band: narrow 0-499, regular 500-768, wide 769-1439, extra-wide 1440 and above. */
export function breakpointOf(width: number): Breakpoint {
  if (width <= BREAKPOINT_MAX.narrow) return 'narrow';
  if (width <= BREAKPOINT_MAX.regular) return 'regular';
  if (width <= BREAKPOINT_MAX.wide) return 'wide';
  return 'extraWide';
}

/** Narrow and regular widths use the narrow (phone) workspace layout. */
export function usesNarrowLayout(breakpoint: Breakpoint): boolean {
  return breakpoint === 'narrow' || breakpoint === 'regular';
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

// The band, not the width, is the snapshot: a resize inside one band renders nothing.
const snapshot = () => breakpointOf(window.innerWidth);

/** The current width band, updated on resize. */
export function useBreakpoint(): Breakpoint {
  return useSyncExternalStore(subscribe, snapshot, () => 'wide');
}
