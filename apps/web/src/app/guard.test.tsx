import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '../test/fixtures';
import { renderApp, storeSession } from '../test/render';
import { useAuthStore } from '../features/auth/store';
import { STORAGE_KEYS } from '../shared/storage';

describe('login guard', () => {
  it.each(['/desktop', '/phone', '/profile', '/chart', '/d', '/performance-test'])(
    'sends a visitor without a stored session from %s to /login',
    async (path) => {
      const { location } = renderApp(path);
      await screen.findByRole('heading', { name: 'Login' });
      expect(location().pathname).toBe('/login');
    },
  );

  it('needs both the user id and the user name', async () => {
    localStorage.setItem(STORAGE_KEYS.userId, '12');
    const { location } = renderApp('/profile');
    await screen.findByRole('heading', { name: 'Login' });
    expect(location().pathname).toBe('/login');
  });

  it('selects the first trader when none is current, then renders the page', async () => {
    storeSession(buildUser(), { withTrader: false });
    expect(useAuthStore.getState().currentTrader).toBeNull();
    const { location } = renderApp('/profile');
    expect(await screen.findByText('alice', { selector: 'h3' })).toBeInTheDocument();
    expect(location().pathname).toBe('/profile');
    expect(useAuthStore.getState().currentTrader?.uuid).toBe('acc-1');
    await waitFor(() =>
      expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.currentTrader)!).uuid).toBe('acc-1'),
    );
  });

  it('renders the page for a user without trading accounts', async () => {
    storeSession(buildUser({ traders: [] }));
    renderApp('/profile');
    expect(await screen.findByLabelText('Account: No trading account')).toBeInTheDocument();
    expect(useAuthStore.getState().currentTrader).toBeNull();
  });

  it('lets anyone reach /login', async () => {
    storeSession(buildUser());
    const { location } = renderApp('/login');
    await screen.findByRole('heading', { name: 'Login' });
    expect(location().pathname).toBe('/login');
  });
});
