import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../../shared/storage';
import { renderWithProviders } from '../../../test/render';
import { BottomPanel } from './BottomPanel';
import {
  nextOnMaximizeToggle,
  nextOnTabClick,
  readStoredBottomPanel,
  useBottomPanelStore,
} from './store';
import type { BottomPanelState } from './store';

const base: BottomPanelState = { size: 'medium', tab: 'trade', subTab: 'positions' };

describe('bottom panel rules', () => {
  it('clicking the active tab minimizes', () => {
    expect(nextOnTabClick(base, 'trade')).toEqual({ ...base, size: 'minimized' });
    expect(nextOnTabClick({ ...base, size: 'maximized' }, 'trade').size).toBe('minimized');
  });

  it('clicking another tab switches and keeps the size', () => {
    expect(nextOnTabClick(base, 'wallet')).toEqual({ ...base, tab: 'wallet' });
    expect(nextOnTabClick({ ...base, size: 'maximized' }, 'wallet')).toEqual({
      ...base,
      size: 'maximized',
      tab: 'wallet',
    });
  });

  it('opening from minimized goes to medium on the clicked tab', () => {
    const minimized = { ...base, size: 'minimized' as const };
    expect(nextOnTabClick(minimized, 'trade')).toEqual(base);
    expect(nextOnTabClick(minimized, 'wallet')).toEqual({ ...base, tab: 'wallet' });
  });

  it('maximize and restore', () => {
    expect(nextOnMaximizeToggle(base).size).toBe('maximized');
    expect(nextOnMaximizeToggle({ ...base, size: 'maximized' }).size).toBe('medium');
    expect(nextOnMaximizeToggle({ ...base, size: 'minimized' }).size).toBe('maximized');
  });

  it('reads stored values and ignores unknown ones', () => {
    localStorage.setItem(STORAGE_KEYS.bottomPanelSize, 'maximized');
    localStorage.setItem(STORAGE_KEYS.bottomPanelTab, 'wallet');
    localStorage.setItem(STORAGE_KEYS.bottomPanelSubTab, 'nonsense');
    expect(readStoredBottomPanel()).toEqual({
      size: 'maximized',
      tab: 'wallet',
      subTab: 'positions',
    });
  });
});

describe('BottomPanel', () => {
  beforeEach(() => {
    useBottomPanelStore.setState(base);
  });

  const stored = () => ({
    size: localStorage.getItem(STORAGE_KEYS.bottomPanelSize),
    tab: localStorage.getItem(STORAGE_KEYS.bottomPanelTab),
    subTab: localStorage.getItem(STORAGE_KEYS.bottomPanelSubTab),
  });

  it('shows Trade with its four sub-tabs and the Chinese empty text of positions', async () => {
    renderWithProviders(<BottomPanel />);
    const tablist = screen.getByRole('tablist', { name: 'Trade panel' });
    expect(within(tablist).getByRole('tab', { name: 'Trade' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    for (const name of ['Positions', 'Orders', 'Pending', 'Order Logs']) {
      expect(screen.getByRole('tab', { name })).toBeInTheDocument();
    }
    expect(await screen.findByText('暂无持仓')).toBeInTheDocument();
  });

  it.each([
    ['Orders', '暂无订单', 'orders'],
    ['Pending', '暂无挂单', 'pending'],
    ['Order Logs', '暂无订单日志', 'orderLogs'],
  ])('sub-tab %s shows %s and is remembered', async (name, empty, key) => {
    const { user } = renderWithProviders(<BottomPanel />);
    await user.click(screen.getByRole('tab', { name }));
    expect(await screen.findByText(empty)).toBeInTheDocument();
    expect(stored().subTab).toBe(key);
  });

  it('follows the click rules and persists every change', async () => {
    const { user } = renderWithProviders(<BottomPanel />);
    const trade = screen.getByRole('tab', { name: 'Trade' });
    const wallet = screen.getByRole('tab', { name: 'Wallet' });

    await user.click(wallet);
    expect(screen.getByText('Wallet functionality will be displayed here')).toBeInTheDocument();
    expect(stored()).toEqual({ size: 'medium', tab: 'wallet', subTab: 'positions' });

    await user.click(wallet);
    expect(screen.queryByRole('tabpanel')).not.toBeInTheDocument();
    expect(stored().size).toBe('minimized');

    await user.click(trade);
    expect(await screen.findByText('暂无持仓')).toBeInTheDocument();
    expect(stored()).toEqual({ size: 'medium', tab: 'trade', subTab: 'positions' });

    await user.click(screen.getByRole('button', { name: 'Maximize panel' }));
    expect(stored().size).toBe('maximized');
    await user.click(screen.getByRole('button', { name: 'Restore panel' }));
    expect(stored().size).toBe('medium');
  });

  it('builds each table with its entity columns', async () => {
    renderWithProviders(<BottomPanel />);
    await screen.findByText('暂无持仓');
    for (const title of ['Symbol', 'Side', 'Volume', 'Open Price', 'Market Price', 'TP', 'SL']) {
      expect(screen.getAllByText(title, { selector: 'th' }).length).toBeGreaterThan(0);
    }
  });
});
