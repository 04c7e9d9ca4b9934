import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CELLS, useChartGridStore } from '../shared/chartGrid';
import { setLanguage, useLanguageStore } from '../shared/language';
import { buildUser } from '../test/fixtures';
import { renderApp, storeSession } from '../test/render';
import { stubMarketFetch } from '../features/chart/testSupport';
import { knowBtc, setQuote } from '../features/trading/testSupport';
import { useSidePanelStore } from '../features/workspace/side-panel/store';

/*
 * A language switch puts the pages' texts in the new language without remounting them: what
 * the trader opened or typed stays (My's open tab on a phone, a typed quantity on a desktop).
 */

// The switch and the languages are chunks of their own: loaded once, before the lookups.
beforeAll(
  () =>
    Promise.all([
      import('../i18n/switch'),
      import('../i18n/locales/zh'),
      import('../i18n/locales/en'),
      import('antd/locale/zh_CN'),
    ]),
  120_000,
);

function setWidth(width: number) {
  vi.spyOn(window, 'innerWidth', 'get').mockReturnValue(width);
}

beforeEach(() => {
  storeSession(buildUser());
  stubMarketFetch();
  useSidePanelStore.setState({ active: 'trading' });
  useChartGridStore.setState({
    layout: 1,
    activeChartId: 'chart-1',
    charts: DEFAULT_CELLS.map((cell) => ({ ...cell })),
  });
});
afterEach(async () => {
  await setLanguage('default');
});

describe('switching the language keeps what is open and typed', () => {
  it('on a phone, My stays open after choosing 简体中文 there, in Chinese', async () => {
    setWidth(390);
    const { user } = renderApp('/phone');
    const bar = await screen.findByRole('navigation', { name: 'Main navigation' });
    await user.click(within(bar).getByRole('button', { name: 'My' }));
    const language = screen.getByRole('heading', { name: 'Language' });
    expect(language).toBeInTheDocument();

    await user.click(screen.getByText('简体中文'));
    await waitFor(() => expect(useLanguageStore.getState().language).toBe('zh-CN'));

    // My is still the open tab, its texts in Chinese
    expect(await screen.findByRole('heading', { name: '语言' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '主题' })).toBeInTheDocument();
    const zhBar = screen.getByRole('navigation', { name: '主导航' });
    expect(within(zhBar).getByRole('button', { name: '我的' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it('on a desktop, a quantity typed in the ticket stays after a switch to 简体中文', async () => {
    setWidth(1440);
    knowBtc();
    setQuote('BTCUSDT', 45_000, 45_000.5);
    const { fill } = renderApp('/desktop');
    const panel = await screen.findByRole('complementary', { name: 'Trading' });
    const quantity = await within(panel).findByLabelText('Quantity', {}, { timeout: 20_000 });
    await fill(quantity, '3');
    expect(quantity).toHaveValue('3.00');

    await setLanguage('zh-CN');

    const zhPanel = await screen.findByRole('complementary', { name: '交易' });
    const zhQuantity = within(zhPanel).getByLabelText('数量');
    // the very same field, its value kept
    expect(zhQuantity).toBe(quantity);
    expect(zhQuantity).toHaveValue('3.00');
    // the trade table's column titles too
    expect(await screen.findByRole('columnheader', { name: '品种' })).toBeInTheDocument();
  });
});
