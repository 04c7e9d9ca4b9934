import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectPath, loginThroughPage, stored } from './support/auth.ts';
import { launchBrowser, newContext, screenshot } from './support/browser.ts';
import { chartCanvas, chartPoint, dataset, sessionApi } from './support/chart.ts';
import { clickInDialog, ticket, toast, tradeRows } from './support/trading.ts';

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

const CHART = '[data-testid=chart-canvas]';

/** Marks an element; the mark stays as long as the element is not drawn anew (remounted). */
async function mark(element: Locator): Promise<void> {
  await element.evaluate((el) => {
    (el as unknown as { __kept?: boolean }).__kept = true;
  });
}

async function marked(element: Locator): Promise<boolean> {
  return element.evaluate((el) => (el as unknown as { __kept?: boolean }).__kept === true);
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
  /** The drawing the journey made (deleted at the end: the demo user is shared). */
  let drawn: number | null = null;

  beforeAll(async () => {
    const context = await newContext(browser, 'desktop', baseURL);
    page = await context.newPage();
    await loginThroughPage(page, password);
    await expectPath(page, '/desktop');
    await ticket(page).getByRole('button', { name: 'Place Buy Order' }).waitFor();
    await markDocument(page);
  });
  afterAll(async () => {
    if (drawn !== null) await sessionApi(page, 'DELETE', `/api/charts/drawings/${drawn}`);
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

  it('a refused order says why in the chosen language: its toast and its Order Logs row', async () => {
    // 100 lots of BTCUSDT need far more margin than the account holds: refused and logged
    const zhTicket = page.getByRole('group', { name: 'BTCUSDT 下单' });
    await zhTicket.getByLabel('数量').fill('100');
    await zhTicket.getByRole('button', { name: '下买单' }).click();
    await toast(page, /^保证金不足：该订单需要 /);
    await page.getByRole('tab', { name: '订单日志', exact: true }).click();
    const refused = tradeRows(page).filter({ hasText: '保证金不足' }).first();
    await refused.waitFor();
    await screenshot(page, 'language-desktop-zh-refused');

    await chooseInUserMenu(page, '语言', 'English');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    await page.getByRole('menu').first().waitFor({ state: 'hidden' });
    const refusedEn = tradeRows(page).filter({ hasText: 'Insufficient margin' }).first();
    await refusedEn.waitFor();
    expect(await refusedEn.textContent()).not.toMatch(CHINESE);
    await page.getByRole('tab', { name: 'Order Logs', exact: true }).waitFor();
    await screenshot(page, 'language-desktop-en-refused');

    await ticket(page).getByLabel('Quantity').fill('1');
    await page.getByRole('tab', { name: 'Positions', exact: true }).click();
    await chooseInUserMenu(page, 'Language', '简体中文');
    await page
      .getByRole('group', { name: 'BTCUSDT 下单' })
      .getByRole('button', { name: '下买单' })
      .waitFor();
  });

  it('Default from the menu brings back the spec’s texts', async () => {
    await markDocument(page);
    await chooseInUserMenu(page, '语言', '默认');
    await ticket(page).getByRole('button', { name: 'Place Buy Order' }).waitFor();
    await page.getByRole('tab', { name: 'Positions', exact: true }).waitFor();
    expect(await stored(page, 'language')).toBeNull();
    await expectNotReloaded(page);
  });

  it('keeps the ticket, the chart, its drawing and the open panels across a switch', async () => {
    // the chart on another instrument (the ticket follows it)
    await page.getByRole('combobox', { name: 'Instrument' }).first().click();
    await page.keyboard.type('ETH');
    await page.locator('.ant-select-item-option').filter({ hasText: 'ETHUSDT' }).first().click();
    await page.waitForSelector(`${CHART}[data-phase=ready][data-symbol=ETHUSDT]`);
    const chart = chartCanvas(page);
    const order = ticket(page, 'ETHUSDT');
    await order.getByRole('button', { name: 'Place Buy Order' }).waitFor();

    // a horizontal line drawn on it, selected once saved
    const toolbar = page.getByRole('toolbar', { name: 'Chart tools' }).first();
    await toolbar.getByRole('button', { name: 'Horizontal line', exact: true }).click();
    await expect.poll(async () => (await dataset(chart)).drawingTool).toBe('horizontal');
    const line = await chartPoint(chart, 0.4, 0.3);
    await page.mouse.click(line.x, line.y);
    await expect.poll(async () => (await dataset(chart)).drawingSelected).toMatch(/^\d+$/);
    drawn = Number((await dataset(chart)).drawingSelected);
    await page.getByRole('button', { name: 'Delete Horizontal line' }).waitFor();

    // an order being written: Sell, a quantity; a bottom panel tab other than the first
    await order.getByRole('radio', { name: /Sell/ }).click();
    await order.getByLabel('Quantity').fill('0.37');
    await page.getByRole('tab', { name: 'Order Logs', exact: true }).click();
    // marks on the elements: a remount would draw new ones without them
    await mark(chart);
    await mark(order.getByLabel('Quantity'));

    await chooseInUserMenu(page, 'Language', '简体中文');
    const zhOrder = page.getByRole('group', { name: 'ETHUSDT 下单' });
    // Sell is still chosen: the ticket's button places a sell order
    await zhOrder.getByRole('button', { name: '下卖单' }).waitFor();
    await page.getByRole('tab', { name: '订单日志', exact: true }).waitFor();
    // the texts changed …
    await page.getByRole('button', { name: '删除水平线' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Order Logs', exact: true }).count()).toBe(0);
    // … and nothing was lost
    expect(await zhOrder.getByLabel('数量').inputValue()).toBe('0.37');
    expect(await marked(zhOrder.getByLabel('数量'))).toBe(true);
    expect(await zhOrder.getByRole('radio', { name: /卖出/ }).isChecked()).toBe(true);
    expect(
      await page.getByRole('tab', { name: '订单日志', exact: true }).getAttribute('aria-selected'),
    ).toBe('true');
    expect(await marked(chart)).toBe(true);
    expect(await dataset(chart)).toMatchObject({
      symbol: 'ETHUSDT',
      phase: 'ready',
      drawingSelected: String(drawn),
    });
    await expectNotReloaded(page);
    // the crosshair's time label (in Chinese) in the screenshots
    const middle = await chartPoint(chart, 0.55, 0.6);
    await page.mouse.move(middle.x, middle.y);
    await screenshot(page, 'language-desktop-zh-kept');
    await page.getByRole('button', { name: '切换到深色主题' }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await page.mouse.move(middle.x, middle.y);
    await screenshot(page, 'language-desktop-zh-kept-dark');
    await page.getByRole('button', { name: '切换到浅色主题' }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');

    // another side panel open: it stays open, in the new language
    const sideButtons = page.getByRole('navigation', { name: '侧边栏按钮' });
    await sideButtons.getByRole('button', { name: '警报' }).click();
    await page.getByRole('complementary', { name: '警报' }).waitFor();
    await mark(page.getByRole('complementary', { name: '警报' }));
    await chooseInUserMenu(page, '语言', 'English');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    const alerts = page.getByRole('complementary', { name: 'Alerts' });
    await alerts.waitFor();
    expect(await marked(alerts)).toBe(true);
    expect(await dataset(chart)).toMatchObject({
      symbol: 'ETHUSDT',
      drawingSelected: String(drawn),
    });
    expect(await marked(chart)).toBe(true);
    await expect.poll(() => pageText(page)).not.toMatch(CHINESE);
    await expectNotReloaded(page);
    await page.mouse.move(5, 5);
    await screenshot(page, 'language-desktop-en-kept');
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
    // the tables' code and rows come after the chart: the picture shows them, not the loading
    await page.getByRole('table').first().waitFor();
    await expect.poll(() => page.locator('.page-loading, .ant-spin-spinning').count()).toBe(0);
    await noHorizontalScroll(page);
    await screenshot(page, 'language-phone-zh-positions');
    await expectNotReloaded(page);
  });
});

describe('the workspace in each language and theme (screenshots)', () => {
  const LANGUAGES = [
    { name: 'default', stored: null, lang: 'en', ready: 'Place Buy Order', my: 'My' },
    { name: 'en', stored: 'en', lang: 'en', ready: 'Place Buy Order', my: 'My' },
    { name: 'zh', stored: 'zh-CN', lang: 'zh-CN', ready: '下买单', my: '我的' },
  ] as const;

  for (const viewport of ['desktop', 'phone'] as const) {
    const width = viewport === 'desktop' ? 1440 : 390;

    describe(`at ${width} px`, () => {
      let page: Page;

      beforeAll(async () => {
        const context = await newContext(browser, viewport, baseURL);
        page = await context.newPage();
        await loginThroughPage(page, password);
        await expectPath(page, `/${viewport}`);
      });
      afterAll(async () => {
        await page.context().close();
      });

      for (const language of LANGUAGES) {
        it(`${language.name}, light and dark`, async () => {
          for (const theme of ['light', 'dark'] as const) {
            await page.evaluate(
              ({ stored, theme }) => {
                if (stored) localStorage.setItem('language', stored);
                else localStorage.removeItem('language');
                localStorage.setItem('theme', theme);
              },
              { stored: language.stored, theme },
            );
            await page.reload();
            await page.waitForFunction(
              ({ lang, theme }) =>
                document.documentElement.lang === lang &&
                document.documentElement.dataset.theme === theme,
              { lang: language.lang, theme },
            );
            if (viewport === 'desktop') {
              await page.getByRole('button', { name: language.ready }).first().waitFor();
              await page.waitForSelector(`${CHART}[data-phase=ready]`, { timeout: 30_000 });
            } else {
              await page.getByRole('button', { name: language.my, exact: true }).waitFor();
              await noHorizontalScroll(page);
            }
            if (language.name === 'zh') expect(await pageText(page)).toMatch(CHINESE);
            else if (language.name === 'en') {
              await expect.poll(() => pageText(page)).not.toMatch(CHINESE);
            }
            await screenshot(page, `language-workspace-${width}-${language.name}-${theme}`);
          }
        });
      }
    });
  }
});
