import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectPath, loginThroughPage, stored } from './support/auth.ts';
import { launchBrowser, newContext, screenshot } from './support/browser.ts';
import { clickInDialog, ticket } from './support/trading.ts';

/*
 * The language setting: from the user menu (desktop) or My (phone) the trader switches every
 * text to English, then to 简体中文, and back to the spec's default texts, without a reload;
 * the choice is kept for the next visit.
 */

const baseURL = inject('baseURL');
const password = inject('demoPassword');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

/** Chinese characters (and full-width punctuation) in a text. */
const CHINESE = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;

async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __notReloaded?: boolean }).__notReloaded = true;
  });
}

async function expectNotReloaded(page: Page): Promise<void> {
  expect(
    await page.evaluate(() => (window as unknown as { __notReloaded?: boolean }).__notReloaded),
  ).toBe(true);
}

/**
 * The texts on the page (menus and toasts left out), less the language setting's option
 * 简体中文, named in its own language whatever the language is.
 */
async function pageText(page: Page): Promise<string> {
  const text = await page.evaluate(() => document.querySelector('.app-root')?.textContent ?? '');
  return text.replaceAll('简体中文', '');
}

async function noHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

/** Picks a language in the user menu; `menu` and `language` are named in the current language. */
async function chooseInUserMenu(page: Page, menu: string, language: string): Promise<void> {
  await page.getByRole('button', { name: /^(Account|账户):/ }).click();
  await page.getByRole('menuitem', { name: menu }).hover();
  await page.getByRole('menuitem', { name: language }).click();
}

/**
 * Scrolls a control into view; the switch draws the pages again once more after the texts
 * change, so an element found before that is asked for anew.
 */
async function intoView(control: Locator): Promise<void> {
  await expect
    .poll(
      () =>
        control.scrollIntoViewIfNeeded({ timeout: 5_000 }).then(
          () => true,
          () => false,
        ),
      { timeout: 30_000 },
    )
    .toBe(true);
}

describe('the language setting on a desktop (1440)', () => {
  let page: Page;

  beforeAll(async () => {
    const context = await newContext(browser, 'desktop', baseURL);
    page = await context.newPage();
    await loginThroughPage(page, password);
    await expectPath(page, '/desktop');
    await ticket(page).getByRole('button', { name: 'Place Buy Order' }).waitFor();
    await markDocument(page);
  });
  afterAll(async () => {
    await page.context().close();
  });

  it('English from the user menu: no Chinese text left on the page', async () => {
    await chooseInUserMenu(page, 'Language', 'English');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    await page.getByRole('menu').first().waitFor({ state: 'hidden' });
    await ticket(page).getByRole('button', { name: 'Place Buy Order' }).waitFor();
    await page.getByRole('tab', { name: 'Positions', exact: true }).waitFor();
    await expect.poll(() => pageText(page)).not.toMatch(CHINESE);
    expect(await stored(page, 'language')).toBe('en');
    await expectNotReloaded(page);
    await screenshot(page, 'language-desktop-en');
  });

  it('简体中文 from the user menu: the side panel and the ticket in Chinese', async () => {
    await chooseInUserMenu(page, 'Language', '简体中文');
    const zhTicket = ticket(page)
      .or(page.getByRole('group', { name: 'BTCUSDT 下单' }))
      .last();
    await zhTicket.getByRole('button', { name: '下买单' }).waitFor();
    await zhTicket.getByRole('radio', { name: /卖出/ }).waitFor();
    await zhTicket.getByText('数量', { exact: true }).waitFor();
    await page.getByRole('tab', { name: '持仓', exact: true }).waitFor();
    await page.getByRole('tab', { name: '钱包', exact: true }).waitFor();
    await page.getByRole('button', { name: /^账户:/ }).waitFor();
    const sideButtons = page.getByRole('navigation', { name: '侧边栏按钮' });
    await sideButtons.getByRole('button', { name: '分析' }).waitFor();
    await page.getByRole('complementary', { name: '交易' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    expect(await stored(page, 'language')).toBe('zh-CN');
    await expectNotReloaded(page);
    await screenshot(page, 'language-desktop-zh');

    // the choice is kept: a new visit opens in Chinese
    await page.reload();
    await page
      .getByRole('group', { name: 'BTCUSDT 下单' })
      .getByRole('button', { name: '下买单' })
      .waitFor();
    await page.getByRole('button', { name: '切换到深色主题' }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await screenshot(page, 'language-desktop-zh-dark');
    await page.getByRole('button', { name: '切换到浅色主题' }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  });

  it('Default from the menu brings back the spec’s texts', async () => {
    await markDocument(page);
    await chooseInUserMenu(page, '语言', '默认');
    await ticket(page).getByRole('button', { name: 'Place Buy Order' }).waitFor();
    await page.getByRole('tab', { name: 'Positions', exact: true }).waitFor();
    expect(await stored(page, 'language')).toBeNull();
    await expectNotReloaded(page);
  });
});

describe('the language setting on a phone (390)', () => {
  let page: Page;

  beforeAll(async () => {
    const context = await newContext(browser, 'phone', baseURL);
    page = await context.newPage();
    await loginThroughPage(page, password);
    await expectPath(page, '/phone');
    await markDocument(page);
  });
  afterAll(async () => {
    await page.context().close();
  });

  async function chooseInMy(group: string, language: string): Promise<void> {
    await page
      .getByRole('radiogroup', { name: group })
      .getByText(language, { exact: true })
      .click();
  }

  it('English in My, then the trading modal in English', async () => {
    await page.getByRole('button', { name: 'My' }).click();
    await chooseInMy('Language', 'English');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    // still on My after the switch
    await page.getByRole('radiogroup', { name: 'Language' }).waitFor();
    await expect.poll(() => pageText(page)).not.toMatch(CHINESE);
    await noHorizontalScroll(page);
    await intoView(page.getByRole('radiogroup', { name: 'Language' }));
    await screenshot(page, 'language-phone-en-my');

    await page.getByRole('button', { name: 'Trading' }).click();
    await page.getByRole('button', { name: 'Buy BTCUSDT' }).click();
    const modal = page.getByRole('dialog', { name: 'BTCUSDT Paper Trading' });
    await modal.getByRole('button', { name: 'Place Buy Order' }).waitFor();
    await noHorizontalScroll(page);
    await screenshot(page, 'language-phone-en-ticket');
    await clickInDialog(page, 'BTCUSDT Paper Trading', 'Close');
    await modal.waitFor({ state: 'hidden' });
    await expectNotReloaded(page);
  });

  it('简体中文 in My, then the trading modal in Chinese', async () => {
    await page.getByRole('button', { name: 'My' }).click();
    await chooseInMy('Language', '简体中文');
    await page.getByRole('radiogroup', { name: '语言' }).waitFor();
    await page.getByRole('button', { name: '我的' }).waitFor();
    await noHorizontalScroll(page);
    await intoView(page.getByRole('radiogroup', { name: '语言' }));
    await screenshot(page, 'language-phone-zh-my');

    await page.getByRole('button', { name: '交易' }).click();
    await page.getByRole('button', { name: '买入 BTCUSDT' }).click();
    const modal = page.getByRole('dialog', { name: 'BTCUSDT 模拟交易' });
    await modal.getByRole('button', { name: '下买单' }).waitFor();
    await modal.getByRole('radio', { name: /买入/ }).waitFor();
    await noHorizontalScroll(page);
    await screenshot(page, 'language-phone-zh-ticket');
    await clickInDialog(page, 'BTCUSDT 模拟交易', '关闭');
    await modal.waitFor({ state: 'hidden' });

    await page.getByRole('tab', { name: '持仓', exact: true }).click();
    await noHorizontalScroll(page);
    await screenshot(page, 'language-phone-zh-positions');
    await expectNotReloaded(page);
  });
});
