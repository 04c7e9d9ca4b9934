import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectPath, loginThroughPage } from './support/auth.ts';
import { launchBrowser, newContext, screenshot } from './support/browser.ts';
import { newToastText } from './support/toasts.ts';
import { waitUntil } from './support/wait.ts';

/*
 * The trade tables' columns on a desktop: at 1440 and 1024 px every column can be scrolled
 * into full view inside its table, the pinned Edit/Close (and Cancel) columns never cover
 * another column there, header and cells line up, and the page itself never scrolls
 * sideways. Column positions need a browser's layout.
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

type ColumnCheck = {
  /** Columns that could not be brought fully into view between the pinned ones. */
  covered: string[];
  /** Columns whose first cell does not line up with the header. */
  misaligned: string[];
  /** Headers of the columns pinned to the right. */
  pinnedRight: string[];
  /** How far the page scrolls sideways (0: not at all). */
  pageOverflow: number;
  rows: number;
};

/**
 * Scrolls the visible trade table to every unpinned column in turn and checks that the
 * column then lies fully between the columns pinned left and right, with its first cell
 * under its header.
 */
function checkColumns(page: Page): Promise<ColumnCheck> {
  return page.evaluate(async () => {
    const frame = () =>
      new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const table = Array.from(document.querySelectorAll<HTMLElement>('.trade-table')).find(
      (t) => t.offsetParent !== null,
    );
    if (!table) throw new Error('No trade table on screen');
    const body = table.querySelector<HTMLElement>('.ant-table-body');
    if (!body) throw new Error('The trade table does not scroll');
    const heads = Array.from(table.querySelectorAll<HTMLElement>('.ant-table-header th')).filter(
      (th) => th.offsetParent !== null && th.textContent,
    );
    const firstRow = table.querySelector('.ant-table-body tr.ant-table-row');
    const cells = firstRow ? Array.from(firstRow.querySelectorAll<HTMLElement>('td')) : [];
    const pinnedRight = (el: HTMLElement) => /fix-(end|right)/.test(el.className);
    const pinnedLeft = (el: HTMLElement) => /fix-(start|left)/.test(el.className);
    const covered: string[] = [];
    const misaligned: string[] = [];
    const leftWidth = heads
      .filter(pinnedLeft)
      .reduce((sum, th) => sum + th.getBoundingClientRect().width, 0);
    for (const [index, th] of heads.entries()) {
      if (pinnedLeft(th) || pinnedRight(th)) continue;
      body.scrollLeft = th.offsetLeft - leftWidth;
      await frame();
      const bodyBox = body.getBoundingClientRect();
      const lefts = heads.filter(pinnedLeft).map((h) => h.getBoundingClientRect().right);
      const rights = heads.filter(pinnedRight).map((h) => h.getBoundingClientRect().left);
      const from = Math.max(bodyBox.left, ...lefts);
      const to = Math.min(bodyBox.right, ...rights);
      const box = th.getBoundingClientRect();
      if (box.left < from - 1 || box.right > to + 1) covered.push(th.textContent ?? '');
      const cell = cells[index]?.getBoundingClientRect();
      if (cell && (Math.abs(cell.left - box.left) > 1 || Math.abs(cell.right - box.right) > 1)) {
        misaligned.push(th.textContent ?? '');
      }
    }
    body.scrollLeft = 0;
    return {
      covered,
      misaligned,
      pinnedRight: heads.filter(pinnedRight).map((th) => th.textContent ?? ''),
      pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      rows: table.querySelectorAll('.ant-table-body tr.ant-table-row').length,
    };
  });
}

async function placeMarketOrder(page: Page): Promise<void> {
  const place = page.getByRole('button', { name: /^Place (Buy|Sell) Order$/ });
  await waitUntil(
    () => place.isEnabled(),
    (enabled) => enabled,
    30_000,
  );
  await newToastText(page, /^Order successful/, () => place.click());
}

describe('trade tables on a desktop', () => {
  it('every column scrolls into full view; the pinned action columns cover none', async () => {
    const context = await newContext(browser, 'desktop', baseURL);
    const page = await context.newPage();
    await loginThroughPage(page, password);
    await expectPath(page, '/desktop');

    // rows in every table: two positions (one closed in part), a pending order
    await placeMarketOrder(page);
    await placeMarketOrder(page);
    await page.getByText('Limit', { exact: true }).click();
    const limit = page.getByLabel('Limit Price');
    const reference = Number(await limit.inputValue());
    await limit.fill((reference * 0.9).toFixed(1));
    await newToastText(page, /^Pending order successful/, () =>
      page.getByRole('button', { name: /^Place (Buy|Sell) Order$/ }).click(),
    );
    await page.getByRole('tab', { name: 'Positions', exact: true }).click();
    await page
      .getByRole('button', { name: /^Close BTCUSDT / })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: 'Close Position' });
    await dialog.getByLabel('Close quantity').fill('0.5');
    await dialog.getByRole('button', { name: 'Close Position' }).click();
    await page
      .locator('.ant-message-notice')
      .filter({ hasText: 'Position closed successfully' })
      .first()
      .waitFor();

    const tabs = [
      { tab: 'Positions', pinned: ['Edit', 'Close'], shown: ['Open Time', 'Currency', 'TP'] },
      { tab: 'Orders', pinned: [], shown: ['Close Commission', 'Currency'] },
      { tab: 'Pending', pinned: ['Cancel'], shown: ['Created', 'Pending ID', 'TP'] },
      { tab: 'Order Logs', pinned: [], shown: ['Transact Time', 'Message'] },
    ];
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: 900 });
      for (const { tab, pinned, shown } of tabs) {
        await page.getByRole('tab', { name: tab, exact: true }).click();
        const check = await waitUntil(
          () => checkColumns(page),
          (c) => c.rows > 0 && c.covered.length === 0 && c.misaligned.length === 0,
        );
        expect(check.rows, `${tab} at ${width}`).toBeGreaterThan(0);
        expect(check.covered, `${tab} at ${width}: columns left under the pinned ones`).toEqual([]);
        expect(check.misaligned, `${tab} at ${width}: cells not under their header`).toEqual([]);
        expect(check.pinnedRight, `${tab} at ${width}`).toEqual(pinned);
        expect(check.pageOverflow, `${tab} at ${width}: the page scrolls sideways`).toBe(0);
        for (const name of shown) {
          await expect
            .poll(() => page.getByRole('columnheader', { name, exact: true }).count())
            .toBeGreaterThan(0);
        }
      }
      await page.getByRole('tab', { name: 'Positions', exact: true }).click();
      await screenshot(page, `tables-positions-${width}`);
    }
    await context.close();
  });
});
