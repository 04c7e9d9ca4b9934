import { lazy, Suspense, type ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { Navigate, useLocation } from 'react-router';
import { LoginPage } from '../features/auth/LoginPage';
import { ChartPage } from '../features/workspace/ChartPage';
import { WorkspacePage } from '../features/workspace/WorkspacePage';
import { RequireAuth } from './guard';
import { rootRedirectTarget } from './redirect';
import { RootLayout } from './RootLayout';

// Pages few visits start on load when opened: the internal performance page and the profile.
const PerformanceTestPage = lazy(() =>
  import('../features/performance/PerformanceTestPage').then((m) => ({
    default: m.PerformanceTestPage,
  })),
);
const ProfilePage = lazy(() =>
  import('../features/profile/ProfilePage').then((m) => ({ default: m.ProfilePage })),
);

function Later({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}

function RootRedirect() {
  const location = useLocation();
  return <Navigate to={rootRedirectTarget(location, navigator.userAgent)} replace />;
}

/** The route table of spec section 2. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <RootRedirect /> },
      {
        path: '/desktop',
        element: (
          <RequireAuth>
            <WorkspacePage />
          </RequireAuth>
        ),
      },
      {
        path: '/phone',
        element: (
          <RequireAuth>
            <WorkspacePage forceNarrow />
          </RequireAuth>
        ),
      },
      {
        path: '/chart',
        element: (
          <RequireAuth>
            <ChartPage />
          </RequireAuth>
        ),
      },
      {
        path: '/d',
        element: (
          <RequireAuth>
            <ChartPage />
          </RequireAuth>
        ),
      },
      {
        path: '/profile',
        element: (
          <RequireAuth>
            <Later>
              <ProfilePage />
            </Later>
          </RequireAuth>
        ),
      },
      { path: '/login', element: <LoginPage /> },
      {
        path: '/performance-test',
        element: (
          <RequireAuth>
            <Later>
              <PerformanceTestPage />
            </Later>
          </RequireAuth>
        ),
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
