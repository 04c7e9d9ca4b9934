import { beforeAll } from 'vitest';
import type React from 'react';
import { StyleProvider } from '@ant-design/cssinjs';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { User } from '@ct/domain';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../app/providers';
import { loadPages, routes } from '../app/routes';
import { STORAGE_KEYS } from '../shared/storage';
import { reloadAuthFromStorage } from '../features/auth/store';

// antd's CSS goes to a detached node: jsdom's getComputedStyle walks every stylesheet of
// the document, which made each role query take seconds. Tests therefore check presence
// and attributes, not CSS visibility.
const styleContainer = document.createElement('div');
function TestStyles({ children }: { children: React.ReactNode }) {
  return <StyleProvider container={styleContainer}>{children}</StyleProvider>;
}

/** Stores a signed-in session the way login does, then loads it into the auth store. */
export function storeSession(user: User, options: { withTrader?: boolean } = {}): void {
  const { withTrader = true } = options;
  localStorage.setItem(STORAGE_KEYS.userId, String(user.id));
  localStorage.setItem(STORAGE_KEYS.userName, user.email ?? 'user@example.com');
  localStorage.setItem(STORAGE_KEYS.userData, JSON.stringify(user));
  localStorage.setItem(STORAGE_KEYS.isLoggedIn, 'true');
  const first = user.traders[0];
  if (withTrader && first) {
    localStorage.setItem(STORAGE_KEYS.currentTrader, JSON.stringify(first));
  }
  reloadAuthFromStorage();
}

// The pages, the panels that follow the first chart and antd's pieces loaded on first use are chunks of their own (routes.tsx,
// shared/firstChart.ts): loaded once per test file, as the route table imported them before,
// so a lookup's deadline never waits for a module load.
beforeAll(
  () =>
    Promise.all([
      loadPages(),
      import('../features/workspace/bottom-panel/BottomPanel'),
      import('../features/workspace/side-panel/TradingPanel'),
      import('../features/workspace/narrow/NarrowLayout'),
      import('../features/workspace/trade/TradeTables'),
      import('../features/trading/NarrowTradingRuntime'),
      import('../features/assistant/AssistantLauncher'),
      // antd pieces loaded on first use (shared/antd, shared/appApi.ts)
      import('../shared/antd/LazyDropdown').then((m) => m.loadDropdown()),
      import('../app/AppApiHost'),
    ]),
  120_000,
);

/** Renders the real route table at a path, inside the app's providers. */
export function renderApp(path: string) {
  reloadAuthFromStorage();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  // No pause between keystrokes: antd inputs are slow enough in jsdom.
  const user = userEvent.setup({ delay: null });
  const view = render(
    <TestStyles>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </TestStyles>,
  );
  const location = () => router.state.location;
  /** Replaces an input's text in one input event (typing key by key is slow in jsdom). */
  const fill = async (input: HTMLElement, text: string) => {
    await user.clear(input);
    if (text) await user.paste(text);
  };
  return { ...view, router, user, location, fill };
}

/** Renders one component inside the app's providers (theme, messages), without routes. */
export function renderWithProviders(ui: React.ReactElement) {
  const user = userEvent.setup({ delay: null });
  const view = render(
    <TestStyles>
      <AppProviders>{ui}</AppProviders>
    </TestStyles>,
  );
  const fill = async (input: HTMLElement, text: string) => {
    await user.clear(input);
    if (text) await user.paste(text);
  };
  return { ...view, user, fill };
}
