import { lazy, Suspense, useEffect } from 'react';
import { toggleMonitorPanel, useMonitorPanel } from './panelStore';

// Loaded only when opened: the panel is a tool, not part of any page's first load.
const MonitorPanel = lazy(() => import('./MonitorPanel'));

/** Alt+Shift+P toggles the performance monitoring panel; it shows over every page. */
export function MonitorPanelHost() {
  const open = useMonitorPanel((s) => s.open);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey && event.shiftKey && event.code === 'KeyP') {
        event.preventDefault();
        toggleMonitorPanel();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <MonitorPanel />
    </Suspense>
  );
}
