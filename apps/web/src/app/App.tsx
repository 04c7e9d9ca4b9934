import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders } from './providers';
import { useAuthStore } from '../features/auth/store';
import { expectRouter } from '../shared/navigation';
import { preloadPage, routes } from './routes';
import { Startup } from './startup';

function Routes() {
  // Created only after start-up, so no route renders before the app is ready.
  const [router] = useState(() => createBrowserRouter(routes));
  return <RouterProvider router={router} />;
}

export function App() {
  useState(() => {
    expectRouter();
    const { userId, userName } = useAuthStore.getState();
    preloadPage(window.location.pathname, Boolean(userId && userName));
  });
  return (
    <AppProviders>
      <Startup>
        <Routes />
      </Startup>
    </AppProviders>
  );
}
