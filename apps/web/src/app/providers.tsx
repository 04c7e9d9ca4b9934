import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider, theme } from 'antd';
// antd's own default texts (ConfigProvider already holds them): not an added load.
import antdDefaultLocale from 'antd/es/locale/en_US';
import type { ReactNode } from 'react';
import { lazy, Suspense, useEffect } from 'react';
import { appApi, useAppApiStore } from '../shared/appApi';
import { afterFirstChart } from '../shared/firstChart';
import { useLanguageStore } from '../shared/language';
import { queryClient } from '../shared/queryClient';
import { followSystemTheme, useThemeStore } from '../shared/theme';

const FONT_FAMILY =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', 'PingFang SC', 'Microsoft YaHei', sans-serif";

// antd's App (toasts, notifications, confirmations) follows the first drawn chart, or comes
// at once when asked for before (shared/appApi.ts).
const AppApiHost = lazy(() => import('./AppApiHost'));

function AppApi() {
  const wanted = useAppApiStore((s) => s.wanted);
  useEffect(() => {
    useAppApiStore.setState((s) => ({ hosts: s.hosts + 1 }));
    void afterFirstChart().then(appApi);
    return () => useAppApiStore.setState((s) => ({ hosts: s.hosts - 1 }));
  }, []);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <AppApiHost />
    </Suspense>
  );
}

/** Paints the page behind the React tree in the theme's colours. */
function DocumentTheme({ mode }: { mode: 'light' | 'dark' }) {
  const { token } = theme.useToken();
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = mode;
    // The app's theme wins over the system's: the page behind every screen (login, profile)
    // and the browser's own controls take the chosen theme, not prefers-color-scheme.
    root.style.colorScheme = mode;
    root.style.backgroundColor = token.colorBgLayout;
    root.style.color = token.colorText;
    // Our own layout CSS reads the theme through these variables.
    const vars: Record<string, string> = {
      '--ct-bg': token.colorBgContainer,
      '--ct-bg-layout': token.colorBgLayout,
      '--ct-bg-elevated': token.colorBgElevated,
      '--ct-border': token.colorBorderSecondary,
      '--ct-border-strong': token.colorBorder,
      '--ct-text': token.colorText,
      '--ct-text-secondary': token.colorTextSecondary,
      '--ct-text-tertiary': token.colorTextTertiary,
      '--ct-primary': token.colorPrimary,
      '--ct-primary-bg': token.colorPrimaryBg,
      '--ct-fill': token.colorFillTertiary,
      '--ct-fill-hover': token.colorFillSecondary,
      '--ct-success': token.colorSuccess,
      '--ct-error': token.colorError,
    };
    for (const [name, value] of Object.entries(vars)) root.style.setProperty(name, value);
  }, [mode, token]);
  return null;
}

export function AppProviders({ children }: { children: ReactNode }) {
  const mode = useThemeStore((s) => s.mode);
  const antdLocale = useLanguageStore((s) => s.antdLocale);
  useEffect(() => followSystemTheme(), []);
  return (
    <ConfigProvider
      // Always a locale: antd wraps its children in a locale provider only when given one,
      // so going from none to one would remount the whole app on a language switch.
      locale={antdLocale ?? antdDefaultLocale}
      theme={{
        algorithm: mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm,
        token: { fontFamily: FONT_FAMILY, borderRadius: 6 },
      }}
    >
      {/* The page's root element, as antd's App draws its own (colour, font, line height). */}
      <div className="app-root" style={{ fontFamily: FONT_FAMILY }}>
        <DocumentTheme mode={mode} />
        <AppApi />
        <QueryClientProvider client={queryClient}>
          {/* What waits for the App (useAppApi) waits here, not above the App itself. */}
          <Suspense fallback={null}>{children}</Suspense>
        </QueryClientProvider>
      </div>
    </ConfigProvider>
  );
}
