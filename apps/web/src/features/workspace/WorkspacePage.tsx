import { lazy, Suspense } from 'react';
import { useBreakpoint, usesNarrowLayout } from '../../shared/breakpoints';
import { lazyAfterFirstChart } from '../../shared/firstChart';
import { WideLayout } from './WideLayout';
import { loadAssistantLauncher } from '../assistant/lazy';

// A phone's layout is a chunk of its own (a desktop never needs it); the assistant's button
// follows the first drawn chart (shared/firstChart.ts).
const NarrowLayout = lazy(() =>
  import('./narrow/NarrowLayout').then((m) => ({ default: m.NarrowLayout })),
);
const AssistantLauncher = lazyAfterFirstChart(() =>
  loadAssistantLauncher().then((m) => ({ default: m.AssistantLauncher })),
);

/** /desktop picks its layout by width; /phone always uses the narrow layout. */
export function WorkspacePage({ forceNarrow = false }: { forceNarrow?: boolean }) {
  const breakpoint = useBreakpoint();
  const narrow = forceNarrow || usesNarrowLayout(breakpoint);
  return (
    <>
      {narrow ? (
        <Suspense fallback={<div className="page-loading" aria-busy="true" />}>
          <NarrowLayout />
        </Suspense>
      ) : (
        <WideLayout />
      )}
      {/* The narrow layout shows it with its chart (NarrowLayout). */}
      {!narrow && (
        <Suspense fallback={null}>
          <AssistantLauncher placement="side-strip" />
        </Suspense>
      )}
    </>
  );
}
