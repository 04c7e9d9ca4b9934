import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { MonitorPanelHost } from '../features/performance';
import { useLanguage } from '../shared/language';
import { registerNavigate } from '../shared/navigation';
import { useVisibilityNetworkCheck } from './network/useVisibilityNetworkCheck';

// Asked for only when the network check fails (rare): its Modal is not in the first load.
const NetworkErrorDialog = lazy(() =>
  import('./network/NetworkErrorDialog').then((m) => ({ default: m.NetworkErrorDialog })),
);

/** Lets code outside React navigate through the router (HTTP client, store actions). */
function NavigationBridge() {
  const navigate = useNavigate();
  useEffect(
    () =>
      registerNavigate((to, options) => {
        void navigate(to, options);
      }),
    [navigate],
  );
  return null;
}

function NetworkWatch() {
  const { dialogOpen, refresh, cancel } = useVisibilityNetworkCheck();
  if (!dialogOpen) return null;
  return (
    <Suspense fallback={null}>
      <NetworkErrorDialog open onRefresh={refresh} onCancel={cancel} />
    </Suspense>
  );
}

export function RootLayout() {
  // A language switch draws the layout's parts again (the pages: routes.tsx's Later).
  useLanguage();
  return (
    <>
      <NavigationBridge />
      <NetworkWatch />
      <Outlet />
      <MonitorPanelHost />
    </>
  );
}
