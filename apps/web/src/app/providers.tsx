import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider, theme } from 'antd';
import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { registerNotifier } from '../shared/notify';
import { queryClient } from '../shared/queryClient';
import { followSystemTheme, useThemeStore } from '../shared/theme';

/** Toasts sit in the toolbar's height (44 px), above the charts and the bottom panel. */
const TOAST_TOP = 4;

const FONT_FAMILY =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', 'PingFang SC', 'Microsoft YaHei', sans-serif";

/** Gives plain actions the themed message API of the antd App. */
function NotifierBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => registerNotifier(message), [message]);
  return null;
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
  useEffect(() => followSystemTheme(), []);
  return (
    <ConfigProvider
      theme={{
        algorithm: mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm,
        token: { fontFamily: FONT_FAMILY, borderRadius: 6 },
      }}
    >
      {/* At most three toasts at once: a burst of fills must not cover the page. Where they
          sit (over the toolbar; above a phone's bottom bar) is in styles.css. */}
      <AntApp className="app-root" message={{ maxCount: 3, top: TOAST_TOP }}>
        <DocumentTheme mode={mode} />
        <NotifierBridge />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
