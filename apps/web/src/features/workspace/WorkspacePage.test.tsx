import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../shared/storage';
import { buildUser } from '../../test/fixtures';
import { renderApp, storeSession } from '../../test/render';
import { useAuthStore } from '../auth/store';
import { stubMarketFetch } from '../chart/testSupport';
import { DEFAULT_CELLS, useChartGridStore } from '../../shared/chartGrid';
import { useSidePanelStore } from './side-panel/store';

function setWidth(width: number) {
  vi.spyOn(window, 'innerWidth', 'get').mockReturnValue(width);
}

describe('wide workspace', () => {
  beforeEach(() => {
    setWidth(1440);
    useSidePanelStore.setState({ active: 'trading' });
    useChartGridStore.setState({
      layout: 1,
      activeChartId: 'chart-1',
      charts: DEFAULT_CELLS.map((cell) => ({ ...cell })),
    });
    storeSession(buildUser());
    stubMarketFetch();
  });

  it('has the toolbar, chart grid, bottom panel and side buttons', async () => {
    renderApp('/desktop');
    expect(
      await screen.findByRole('button', { name: 'Account: Main Account' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Home/ })).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: /Switch to (dark|light) theme/ }),
    ).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Chart 1' })).toHaveTextContent('BTCUSDT');
    const side = screen.getByRole('navigation', { name: 'Side panel buttons' });
    expect(
      within(side)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Trading', 'Analysis', 'Notifications', 'Alerts', 'Settings', 'Profile']);
    expect(screen.getByRole('tab', { name: 'Trade' })).toBeInTheDocument();
  });

  it('trading panel: Paper Trading title, Order and DOM tabs, pick-a-symbol state', async () => {
    useChartGridStore.setState((s) => ({ charts: s.charts.map((c) => ({ ...c, symbol: null })) }));
    renderApp('/desktop');
    const panel = await screen.findByRole('complementary', { name: 'Trading' });
    expect(within(panel).getByRole('heading', { name: 'Paper Trading' })).toBeInTheDocument();
    expect(within(panel).getByRole('tab', { name: 'Order' })).toBeInTheDocument();
    expect(within(panel).getByRole('tab', { name: 'DOM' })).toBeInTheDocument();
    expect(within(panel).getByText('No active chart')).toBeInTheDocument();
  });

  it('trading panel asks to log in to a trading account without a current trader', async () => {
    localStorage.clear();
    storeSession(buildUser({ traders: [] }));
    renderApp('/desktop');
    const panel = await screen.findByRole('complementary', { name: 'Trading' });
    expect(within(panel).getByText('Please login to trading account first')).toBeInTheDocument();
    expect(useAuthStore.getState().currentTrader).toBeNull();
  });

  it('side buttons open their panel, the active one closes it, the choice is kept', async () => {
    const { user } = renderApp('/desktop');
    const notifications = await screen.findByRole('button', { name: 'Notifications' });
    await user.click(notifications);
    expect(notifications).toHaveAttribute('aria-pressed', 'true');
    const panel = screen.getByRole('complementary', { name: 'Notifications' });
    expect(
      await within(panel).findByRole('heading', { name: 'Notifications' }),
    ).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.sideBarButton)).toBe('notifications');

    await user.click(notifications);
    expect(screen.queryByRole('complementary')).not.toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.sideBarButton)).toBe('none');

    for (const name of ['Analysis', 'Settings', 'Profile']) {
      await user.click(screen.getByRole('button', { name }));
      const placeholder = screen.getByRole('complementary', { name });
      await user.click(await within(placeholder).findByRole('button', { name: 'Close' }));
      expect(screen.queryByRole('complementary')).not.toBeInTheDocument();
    }
  });

  it('layout selector shows 1, 2 or 4 charts; a clicked chart becomes active', async () => {
    const { user } = renderApp('/desktop');
    await user.click(await screen.findByTitle('4 charts'));
    expect(localStorage.getItem(STORAGE_KEYS.chartLayout)).toBe('4');
    expect(screen.getAllByRole('region', { name: /^Chart \d$/ })).toHaveLength(4);

    const third = screen.getByRole('region', { name: 'Chart 3' });
    await user.click(third);
    expect(third).toHaveAttribute('aria-current', 'true');
    expect(third).toHaveClass('chart-cell-active');
    expect(screen.getByRole('region', { name: 'Chart 1' })).not.toHaveAttribute('aria-current');

    await user.click(screen.getByTitle('2 charts'));
    expect(screen.getAllByRole('region', { name: /^Chart \d$/ })).toHaveLength(2);
    // The active chart fell out of the layout: the first one takes over.
    expect(screen.getByRole('region', { name: 'Chart 1' })).toHaveAttribute('aria-current', 'true');
  });

  it('user menu lists Profile, Trading Accounts with the current marked, and Logout', async () => {
    const { user, location } = renderApp('/desktop');
    await user.click(await screen.findByRole('button', { name: 'Account: Main Account' }));
    await user.hover(await screen.findByRole('menuitem', { name: /Trading Accounts/ }));
    const current = await screen.findByRole('menuitem', { name: /Main Account/ });
    // the tag comes with the menu's code (shared/antd/dropdown.ts), drawn once it is there
    expect(await within(current).findByText('Current')).toBeInTheDocument();
    await user.click(screen.getByRole('menuitem', { name: /Profile/ }));
    expect(location().pathname).toBe('/profile');
  });
});

describe('narrow workspace', () => {
  beforeEach(() => {
    storeSession(buildUser());
    stubMarketFetch();
  });

  it('/phone always uses the narrow layout, starting on the Chart tab', async () => {
    setWidth(1440);
    renderApp('/phone');
    const bar = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(within(bar).getByRole('button', { name: 'Trading' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(bar).getByRole('button', { name: 'My' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Chart' })).toHaveAttribute('aria-selected', 'true');
    for (const name of ['Positions', 'Orders', 'Pending', 'Order Logs']) {
      expect(screen.getByRole('tab', { name })).toBeInTheDocument();
    }
    expect(
      screen.queryByRole('navigation', { name: 'Side panel buttons' }),
    ).not.toBeInTheDocument();
  });

  it('/desktop at 768 px or less uses the narrow layout', async () => {
    setWidth(768);
    renderApp('/desktop');
    expect(await screen.findByRole('navigation', { name: 'Main navigation' })).toBeInTheDocument();
  });

  it('tables, then My with account and theme sections; Chart is forced again on entry', async () => {
    setWidth(390);
    const { user } = renderApp('/phone');
    await user.click(await screen.findByRole('tab', { name: 'Pending' }));
    expect(await screen.findByText('暂无挂单')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'My' }));
    expect(screen.getByRole('heading', { name: 'Account' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Theme' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Logout/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Main Account/ })).toHaveAttribute(
      'aria-current',
      'true',
    );

    await user.click(screen.getByRole('button', { name: 'Trading' }));
    expect(screen.getByRole('tab', { name: 'Pending' })).toHaveAttribute('aria-selected', 'false');
  });
});
