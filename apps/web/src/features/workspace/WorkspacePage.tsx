import { useBreakpoint, usesNarrowLayout } from '../../app/breakpoints';
import { NarrowLayout } from './narrow/NarrowLayout';
import { WideLayout } from './WideLayout';

/** /desktop picks its layout by width; /phone always uses the narrow layout. */
export function WorkspacePage({ forceNarrow = false }: { forceNarrow?: boolean }) {
  const breakpoint = useBreakpoint();
  return forceNarrow || usesNarrowLayout(breakpoint) ? <NarrowLayout /> : <WideLayout />;
}
