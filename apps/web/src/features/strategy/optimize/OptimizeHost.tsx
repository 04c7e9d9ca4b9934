import { lazy, Suspense } from 'react';
import { useOptimizeStore } from './store';

// The dialog and its rules load the first time Optimize is clicked, not with the editor.
const OptimizeDialog = lazy(() => import('./OptimizeDialog'));

/** Renders the optimise dialog once it was asked for. */
export function OptimizeHost() {
  const requested = useOptimizeStore((s) => s.requested);
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      <OptimizeDialog />
    </Suspense>
  );
}
