import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectPath, loginThroughPage } from './support/auth.ts';
import { launchBrowser, newContext, screenshot } from './support/browser.ts';
import { newToastText } from './support/toasts.ts';
import { clickInDialog } from './support/trading.ts';
import { settledBox, waitUntil } from './support/wait.ts';

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
  // the ticket is a chunk of its own, loaded after the first drawn chart: on a busy machine
  // it takes its time, as the chart does
  await place.waitFor({ timeout: 60_000 });
  await expect.poll(() => place.isEnabled(), { timeout: 30_000 }).toBe(true);
  const text = await newToastText(page, /^Order successful/, () => place.click());
  await expectToastOverToolbarAndGone(page, text);
}

/**
 * The toast with `text` sits over the toolbar (never over the charts' or the tables' first
 * rows) and closes by itself within a few seconds.
 */
async function expectToastOverToolbarAndGone(page: Page, text: string): Promise<void> {
  const notice = page.locator('.ant-message-notice').filter({ hasText: text });
  const box = await settledBox(notice);
  const toolbar = await settledBox(page.locator('.toolbar'));
  expect(box.y + box.height, `toast "${text}" stays in the toolbar`).toBeLessThanOrEqual(
    toolbar.y + toolbar.height + 1,
  );
  await notice.waitFor({ state: 'detached', timeout: 10_000 });
}

/**
 * Headers of the visible trade table that cannot be seen at the table's start: covered by
 * a pinned column or outside the table. The totals row's cell under `totalsOf` is checked
 * too. Looks at what is drawn at the middle of each one (elementFromPoint).
 */
function hiddenAtStart(page: Page, names: string[], totalsOf?: string): Promise<string[]> {
  return page.evaluate(
    ([wanted, totalsColumn]) => {
      const table = Array.from(document.querySelectorAll<HTMLElement>('.trade-table')).find(
        (t) => t.offsetParent !== null,
      );
      if (!table) return ['no table'];
      const body = table.querySelector<HTMLElement>('.ant-table-body');
      if (body) body.scrollLeft = 0;
      const heads = Array.from(table.querySelectorAll<HTMLElement>('.ant-table-header th'));
      const hidden: string[] = [];
      const seen = (el: Element, name: string) => {
        el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
        const box = el.getBoundingClientRect();
        const tableBox = table.getBoundingClientRect();
        const x = box.left + box.width / 2;
        const y = box.top + box.height / 2;
        const inside = box.left >= tableBox.left - 1 && box.right <= tableBox.right + 1;
        const top = document.elementFromPoint(x, y);
        if (!inside || !top || !el.contains(top)) hidden.push(name);
      };
      for (const name of wanted) {
        const th = heads.find((h) => h.textContent === name);
        if (th) seen(th, name);
        else hidden.push(`${name} (missing)`);
      }
      if (totalsColumn) {
        const index = heads.findIndex((h) => h.textContent === totalsColumn);
        // the totals row's cells span columns: find the one that starts at that column
        let column = 0;
        const cell = Array.from(
          table.querySelectorAll<HTMLTableCellElement>('.trade-totals > td'),
        ).find((td) => {
          const starts = column === index;
          column += td.colSpan;
          return starts;
        });
        if (cell) seen(cell, `Total ${totalsColumn}`);
        else hidden.push(`Total ${totalsColumn} (missing)`);
      }
      return hidden;
    },
    [names, totalsOf ?? ''] as const,
  );
}

const KEY_POSITION_COLUMNS = [
  'Symbol',
  'Side',
  'Volume',
  'Open Price',
  'Market Price',
  'Floating P&L',
];

// three orders, each waited for until its toast has gone, then eight tables at two widths: on a
// busy machine that takes longer than the journeys' default 90 s
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
    await clickInDialog(page, 'Close Position', 'Close Position');
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
  }, 180_000);

  it('the live figures stay in view beside the pinned columns, trading panel open or not', async () => {
    const context = await newContext(browser, 'desktop', baseURL);
    const page = await context.newPage();
    await loginThroughPage(page, password);
    await expectPath(page, '/desktop');
    await placeMarketOrder(page);
    const trading = page
      .getByRole('navigation', { name: 'Side panel buttons' })
      .getByRole('button', { name: 'Trading' });
    const setPanel = async (open: boolean) => {
      if ((await trading.getAttribute('aria-pressed')) !== String(open)) await trading.click();
      await page.locator('.side-panel').waitFor({ state: open ? 'visible' : 'detached' });
    };
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: width === 1440 ? 900 : 768 });
      for (const open of [true, false]) {
        await setPanel(open);
        await page.getByRole('tab', { name: 'Positions', exact: true }).click();
        const hidden = await waitUntil(
          () => hiddenAtStart(page, KEY_POSITION_COLUMNS, 'Floating P&L'),
          (h) => h.length === 0,
        );
        expect(hidden, `positions at ${width}, trading panel ${open ? 'open' : 'closed'}`).toEqual(
          [],
        );
        if (open) {
          // the chart keeps most of the width beside the panel
          const charts = await settledBox(page.locator('.workspace-charts'));
          expect(charts.width, `chart width at ${width}`).toBeGreaterThanOrEqual(width * 0.65);
          await screenshot(page, `tables-key-columns-${width}-panel-open`);
        }
      }
      // maximized, the settlements' outcome is in view too
      await setPanel(true);
      await page.getByRole('button', { name: 'Maximize panel' }).click();
      await page.getByRole('tab', { name: 'Orders', exact: true }).click();
      const hidden = await waitUntil(
        () => hiddenAtStart(page, ['Symbol', 'Volume', 'Open Price', 'Close Price', 'Profit']),
        (h) => h.length === 0,
      );
      expect(hidden, `orders at ${width}, maximized`).toEqual([]);
      await page.getByRole('button', { name: 'Restore panel' }).click();
    }
    await context.close();
  }, 150_000);
});
