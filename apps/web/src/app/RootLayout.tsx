import { useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { MonitorPanelHost } from '../features/performance/MonitorPanelHost';
import { registerNavigate } from '../shared/navigation';
import { NetworkErrorDialog } from './network/NetworkErrorDialog';
import { useVisibilityNetworkCheck } from './network/useVisibilityNetworkCheck';

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
  return <NetworkErrorDialog open={dialogOpen} onRefresh={refresh} onCancel={cancel} />;
}

export function RootLayout() {
  return (
    <>
      <NavigationBridge />
      <NetworkWatch />
      <Outlet />
      <MonitorPanelHost />
    </>
  );
}
