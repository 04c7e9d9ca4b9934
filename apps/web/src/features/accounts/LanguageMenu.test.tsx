import { screen, waitFor } from '@testing-library/react';
import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setLanguage, storedLanguage, useLanguageStore } from '../../shared/language';
import { STORAGE_KEYS } from '../../shared/storage';
import { buildUser } from '../../test/fixtures';
import { renderWithProviders, storeSession } from '../../test/render';
import { AccountControl } from './AccountControl';

// The switch and the languages are chunks of their own: loaded once, before the lookups.
beforeAll(
  () =>
    Promise.all([
      import('../../i18n/switch'),
      import('../../i18n/locales/zh'),
      import('antd/locale/zh_CN'),
    ]),
  120_000,
);

describe('the language setting of the user menu', () => {
  beforeEach(() => {
    storeSession(buildUser());
  });
  afterEach(async () => {
    await setLanguage('default');
  });

  it('switches to 简体中文 and back to the default texts, and keeps the choice', async () => {
    const { user } = renderWithProviders(<AccountControl />);
    await user.click(screen.getByRole('button', { name: 'Account: Main Account' }));
    await user.hover(await screen.findByRole('menuitem', { name: /Language/ }));
    await user.click(await screen.findByRole('menuitem', { name: /简体中文/ }));

    await waitFor(() => expect(useLanguageStore.getState().language).toBe('zh-CN'));
    expect(screen.getByRole('button', { name: '账户: Main Account' })).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.language)).toBe('zh-CN');
    expect(storedLanguage()).toBe('zh-CN');
    expect(document.documentElement.lang).toBe('zh-CN');
    // The menu stays mounted through the switch (nothing is remounted); jsdom never ends the
    // motion of its closing, which leaves its items without pointer events: not checked here.
    const again = userEvent.setup({
      delay: null,
      pointerEventsCheck: PointerEventsCheckLevel.Never,
    });
    await again.click(screen.getByRole('button', { name: '账户: Main Account' }));
    await again.hover(await screen.findByRole('menuitem', { name: /语言/ }));
    await again.click(await screen.findByRole('menuitem', { name: /默认/ }));
    await waitFor(() => expect(useLanguageStore.getState().language).toBe('default'));
    expect(screen.getByRole('button', { name: 'Account: Main Account' })).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.language)).toBeNull();
    expect(storedLanguage()).toBe('default');
  });
});
