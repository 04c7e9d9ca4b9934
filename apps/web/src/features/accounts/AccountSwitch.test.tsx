import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../shared/storage';
import { buildUser } from '../../test/fixtures';
import { renderApp, renderWithProviders, storeSession } from '../../test/render';
import { useAuthStore } from '../auth/store';
import { AccountSection } from './AccountSection';

describe('switching trading accounts', () => {
  it('from the My section list: marks the current account and says Trading account switched', async () => {
    storeSession(buildUser());
    const { user } = renderWithProviders(<AccountSection />);
    const main = screen.getByRole('button', { name: /Main Account/ });
    const second = screen.getByRole('button', { name: /Second Account/ });
    expect(main).toHaveAttribute('aria-current', 'true');
    expect(second).not.toHaveAttribute('aria-current');

    await user.click(second);
    expect(await screen.findByText('Trading account switched')).toBeInTheDocument();
    expect(useAuthStore.getState().currentTrader?.uuid).toBe('acc-2');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.currentTrader)!).uuid).toBe('acc-2');
    expect(screen.getByRole('button', { name: /Second Account/ })).toHaveAttribute(
      'aria-current',
      'true',
    );
  });

  it('shows No trading accounts when the user has none', () => {
    storeSession(buildUser({ traders: [] }));
    renderWithProviders(<AccountSection />);
    expect(screen.getByText('No trading accounts')).toBeInTheDocument();
  });

  it('from the user menu of the account control', async () => {
    storeSession(buildUser());
    const { user } = renderApp('/profile');
    await user.click(await screen.findByRole('button', { name: 'Account: Main Account' }));
    expect(await screen.findByRole('menuitem', { name: /Profile/ })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: /Logout/ })).toBeInTheDocument();
    await user.hover(screen.getByRole('menuitem', { name: /Trading Accounts/ }));
    await user.click(await screen.findByRole('menuitem', { name: /Second Account/ }));
    expect(await screen.findByText('Trading account switched')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Account: Second Account' })).toBeInTheDocument(),
    );
  });
});
