import { cloneElement, isValidElement, lazy, Suspense, type ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { Navigate, useLocation } from 'react-router';
import { RequireAuth } from './guard';
import { rootRedirectTarget } from './redirect';
import { useLanguage } from '../shared/language';
import { RootLayout } from './RootLayout';
import { loadLoginPage } from '../features/auth/lazy';
import { loadPerformanceTestPage } from '../features/performance/lazy';
import { loadProfilePage } from '../features/profile/lazy';
import { loadChartPage, loadWorkspacePage } from '../features/workspace/lazy';

// Every page is a chunk of its own, loaded when its route is first shown: the entry holds
// only what every page needs. The page a visit starts on is asked for at once, while the
// start-up steps run (preloadPage), so splitting adds no wait before the first screen.
const loadLogin = loadLoginPage;
const loadWorkspace = loadWorkspacePage;
const LoginPage = lazy(() => loadLogin().then((m) => ({ default: m.LoginPage })));
const WorkspacePage = lazy(() => loadWorkspace().then((m) => ({ default: m.WorkspacePage })));
const ChartPage = lazy(() => loadChartPage().then((m) => ({ default: m.ChartPage })));

/** Loads every page's chunk (tests that render routes wait for it once, not per lookup). */
export async function loadPages(): Promise<void> {
  await Promise.all([loadLogin(), loadWorkspace(), loadChartPage()]);
}

/**
 * Starts loading the page a visit opens on (`pathname`; the login page when nobody is
 * logged in, where the guard sends them). A failed load is retried by its route.
 */
export function preloadPage(pathname: string, loggedIn: boolean): void {
  const load =
    pathname === '/login' || !loggedIn
      ? loadLogin
      : pathname === '/chart' || pathname === '/d'
        ? loadChartPage
        : pathname === '/desktop' || pathname === '/phone' || pathname === '/'
          ? loadWorkspace
          : null;
  load?.().catch(() => undefined);
}

// Pages few visits start on: the internal performance page and the profile.
const PerformanceTestPage = lazy(() =>
  loadPerformanceTestPage().then((m) => ({
    default: m.PerformanceTestPage,
  })),
);
const ProfilePage = lazy(() => loadProfilePage().then((m) => ({ default: m.ProfilePage })));

function Later({ children }: { children: ReactNode }) {
  // A language switch draws the page again with the new texts: a new element of the same
  // page updates it in place (its state, open tabs and typed values kept), never remounts it.
  useLanguage();
  const page = isValidElement(children) ? cloneElement(children) : children;
  return <Suspense fallback={<div className="page-loading" aria-busy="true" />}>{page}</Suspense>;
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
            <Later>
              <WorkspacePage />
            </Later>
          </RequireAuth>
        ),
      },
      {
        path: '/phone',
        element: (
          <RequireAuth>
            <Later>
              <WorkspacePage forceNarrow />
            </Later>
          </RequireAuth>
        ),
      },
      {
        path: '/chart',
        element: (
          <RequireAuth>
            <Later>
              <ChartPage />
            </Later>
          </RequireAuth>
        ),
      },
      {
        path: '/d',
        element: (
          <RequireAuth>
            <Later>
              <ChartPage />
            </Later>
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
      {
        path: '/login',
        element: (
          <Later>
            <LoginPage />
          </Later>
        ),
      },
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
