import { lazy, Suspense, useEffect, useId } from 'react';
import { registerCodeEditorOpener } from './codeEditorHook';
import { openWorkbench, useWorkbenchStore } from './store';

// Monaco is large: the workbench is loaded the first time the editor opens.
const CodeEditorModal = lazy(() => import('./CodeEditorModal'));

/**
 * Mounted by every desktop chart: registers the code editor opener with the chart toolbar;
 * the first mounted host renders the (lazily loaded) workbench once it was opened.
 */
export function StrategyWorkbenchHost() {
  const id = useId();
  const owner = useWorkbenchStore((s) => s.hosts[0] === id);
  const requested = useWorkbenchStore((s) => s.request !== null);

  useEffect(() => {
    useWorkbenchStore.setState((s) => ({ hosts: [...s.hosts, id] }));
    const unregister = registerCodeEditorOpener(openWorkbench);
    return () => {
      unregister();
      useWorkbenchStore.setState((s) => ({ hosts: s.hosts.filter((h) => h !== id) }));
      // Another chart still mounted keeps the button working.
      if (useWorkbenchStore.getState().hosts.length > 0) registerCodeEditorOpener(openWorkbench);
    };
  }, [id]);

  if (!owner || !requested) return null;
  return (
    <Suspense fallback={null}>
      <CodeEditorModal />
    </Suspense>
  );
}
