import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders } from './providers';
import { routes } from './routes';
import { Startup } from './startup';

function Routes() {
  // Created only after start-up, so no route renders before the app is ready.
  const [router] = useState(() => createBrowserRouter(routes));
  return <RouterProvider router={router} />;
}

export function App() {
  return (
    <AppProviders>
      <Startup>
        <Routes />
      </Startup>
    </AppProviders>
  );
}
