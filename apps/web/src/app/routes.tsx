import type { RouteObject } from 'react-router';
import { Navigate, useLocation } from 'react-router';
import { LoginPage } from '../features/auth/LoginPage';
import { ChartPage } from '../features/workspace/ChartPage';
import { PerformanceTestPage } from '../features/performance/PerformanceTestPage';
import { ProfilePage } from '../features/profile/ProfilePage';
import { WorkspacePage } from '../features/workspace/WorkspacePage';
import { RequireAuth } from './guard';
import { rootRedirectTarget } from './redirect';
import { RootLayout } from './RootLayout';

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
            <ProfilePage />
          </RequireAuth>
        ),
      },
      { path: '/login', element: <LoginPage /> },
      {
        path: '/performance-test',
        element: (
          <RequireAuth>
            <PerformanceTestPage />
          </RequireAuth>
        ),
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
