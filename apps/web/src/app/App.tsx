import { useState } from 'react';
import { BrowserRouter, useRoutes } from 'react-router';
import { AppProviders } from './providers';
import { useAuthStore } from '../features/auth';
import { expectRouter } from '../shared/navigation';
import { preloadPage, routes } from './routes';
import { Startup } from './startup';

// The declarative router: the route table through useRoutes. The app uses no loaders,
// actions or fetchers, so the data router (createBrowserRouter) and its code stay out of
// the first load.
function AppRoutes() {
  return useRoutes(routes);
}

function Routes() {
  // Mounted only after start-up, so no route renders before the app is ready. A language
  // switch draws the pages again without remounting them (routes.tsx, RootLayout).
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
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
