import { lazy, Suspense, useEffect, useId } from 'react';
import { create } from 'zustand';
import { registerCodeEditorOpener, type CodeEditorRequest } from './codeEditorHook';

// Monaco, the editor modal and the workbench's actions and stores are large: they load the
// first time the editor opens (the chart toolbar's button, or the assistant's Apply).
const CodeEditorModal = lazy(() => import('./CodeEditorModal'));

/** Mounted hosts (the first renders the workbench) and whether the editor was ever asked. */
const useHosts = create<{ hosts: string[]; requested: boolean }>(() => ({
  hosts: [],
  requested: false,
}));

/** The chart toolbar's code editor button: loads the workbench, then opens it for the chart. */
async function openCodeEditor(request: CodeEditorRequest): Promise<void> {
  useHosts.setState({ requested: true });
  const { openEditorFor } = await import('./openEditor');
  await openEditorFor(request);
}

/**
 * Mounted by every desktop chart: registers the code editor opener with the chart toolbar;
 * the first mounted host renders the (lazily loaded) workbench once it was asked for.
 */
export function StrategyWorkbenchHost() {
  const id = useId();
  const owner = useHosts((s) => s.hosts[0] === id);
  const requested = useHosts((s) => s.requested);

  useEffect(() => {
    useHosts.setState((s) => ({ hosts: [...s.hosts, id] }));
    const unregister = registerCodeEditorOpener(openCodeEditor);
    return () => {
      unregister();
      useHosts.setState((s) => ({ hosts: s.hosts.filter((h) => h !== id) }));
      // Another chart still mounted keeps the button working.
      if (useHosts.getState().hosts.length > 0) registerCodeEditorOpener(openCodeEditor);
    };
  }, [id]);

  if (!owner || !requested) return null;
  return (
    <Suspense fallback={null}>
      <CodeEditorModal />
    </Suspense>
  );
}
