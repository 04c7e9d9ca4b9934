import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot } from './support/browser.ts';
import { modal, openDesktop } from './support/desktop.ts';
import { animationsDone, waitUntil } from './support/wait.ts';

/*
 * A backtest on several instruments: the code editor's feeds picker adds ETHUSDT to the
 * chart's BTCUSDT, a pairs strategy trades both, the results modal switches between the
 * portfolio and each instrument, and Show on Chart opens one chart per instrument with its
 * own trades. Looked at in 1440 and 1024 px, light and dark.
 */

const baseURL = inject('baseURL');
const password = inject('demoPassword');

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await openDesktop(browser, baseURL, password);
});
afterAll(async () => {
  await page?.context().close();
  await browser?.close();
});

function dialog(title: string): Locator {
  return modal(page, title);
}

const editor = () => dialog('Python Code Editor');
const results = () => dialog('Backtest Results');

async function switchTheme(mode: 'dark' | 'light'): Promise<void> {
  const current = await page.evaluate(() => document.documentElement.dataset.theme);
  if (current === mode) return;
  await page.evaluate((m) => {
    document.querySelector<HTMLButtonElement>(`button[aria-label="Switch to ${m} theme"]`)?.click();
  }, mode);
  await page.waitForFunction((m) => document.documentElement.dataset.theme === m, mode);
}

// The code editor is desktop-only (the wide layout mounts it): at 390 px the chart page
// takes its phone layout and the editor with its dialogs is not there to show.
const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
] as const;

async function shootAll(name: string, shown: () => Locator): Promise<void> {
  for (const mode of ['light', 'dark'] as const) {
    await switchTheme(mode);
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      await animationsDone(shown());
      await screenshot(page, `portfolio-${name}-${size.width}-${mode}`);
    }
  }
  await page.setViewportSize(WIDTHS[0]);
  await switchTheme('light');
}

/** Long BTCUSDT and short ETHUSDT from a quarter of the data to its end, on one line. */
const PAIRS =
  'def main(d): return [{"code": c, "open_date": r[len(r) // 4][0], "open_price": r[len(r) // 4][6], ' +
  '"close_date": r[-2][0], "close_price": r[-2][6], "lots": s, "status": "YES"} ' +
  'for c, s in (("BTCUSDT", 1), ("ETHUSDT", -1)) for r in [[x for x in d if x[1] == c]]]';

describe('a backtest on several instruments', () => {
  it('adds a feed in the editor, runs a pairs strategy and shows portfolio and instruments', async () => {
    const chart = page.getByRole('region', { name: 'Chart 1' }).filter({
      has: page.locator('[data-testid=chart-canvas][data-phase=ready]'),
    });
    await chart.waitFor({ timeout: 30_000 });
    const open = chart.getByRole('button', { name: 'Python Code Editor' });
    await waitUntil(
      () => open.isEnabled(),
      (enabled) => enabled,
    );
    await open.click();
    const code = editor().locator('.monaco-editor .view-lines');
    await code.waitFor({ timeout: 60_000 });
    await waitUntil(
      async () => (await code.innerText()).includes('def main'),
      (has) => has,
      30_000,
    );

    // the chart's own feed is there by default; ETHUSDT 1m comes from the catalogue
    const picker = editor().locator('.ant-select').filter({ hasText: 'BTCUSDT 1m' });
    await picker.waitFor({ timeout: 30_000 });
    expect(await picker.getAttribute('class')).toContain('ant-select-multiple');
    await picker.click();
    await page.keyboard.insertText('ETHUSDT 1m');
    await page
      .locator('.ant-select-dropdown:visible')
      .getByTitle('ETHUSDT 1m', { exact: true })
      .click();
    await page.keyboard.press('Escape');
    await waitUntil(
      async () => (await picker.textContent()) ?? '',
      (text) => text.includes('ETHUSDT 1m'),
    );

    await code.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(PAIRS);
    await shootAll('editor', editor);

    await editor().getByRole('button', { name: 'Run Code' }).click();
    const scope = results().getByRole('radiogroup', { name: 'Results of' });
    await scope.waitFor({ timeout: 120_000 });
    const trades = results().locator('.ant-table').filter({ hasText: 'Open Time' });
    const tradeRows = trades.locator('.ant-table-tbody tr.ant-table-row');
    await waitUntil(
      () => tradeRows.count(),
      (n) => n === 2,
    );
    expect(await tradeRows.allInnerTexts()).toEqual([
      expect.stringContaining('BTCUSDT'),
      expect.stringContaining('ETHUSDT'),
    ]);
    const metrics = results().locator('.ant-table').filter({ hasText: '合约 (Symbol)' });
    const symbolRow = metrics.locator('tr').filter({ hasText: '合约 (Symbol)' });
    expect(await symbolRow.innerText()).toContain('BTCUSDT,ETHUSDT');
    // the portfolio's equity with each instrument's contribution over it
    const contributions = results().getByRole('list', { name: 'Contribution of each instrument' });
    await contributions.waitFor();
    expect(await contributions.getByRole('listitem').allInnerTexts()).toEqual([
      'Portfolio',
      'BTCUSDT',
      'ETHUSDT',
    ]);
    expect(
      await results().getByRole('img', { name: 'Equity Curve' }).getAttribute('data-overlays'),
    ).toBe('2');
    await shootAll('results', results);

    // one instrument's figures and trades
    await scope.getByText('ETHUSDT', { exact: true }).click();
    await waitUntil(
      () => symbolRow.innerText(),
      (text) => text.includes('ETHUSDT') && !text.includes('BTCUSDT'),
    );
    await waitUntil(
      () => tradeRows.count(),
      (n) => n === 1,
    );
    expect(await tradeRows.first().innerText()).toContain('Sell');
    await shootAll('results-instrument', results);

    // Show on Chart: one chart per instrument
    await results().getByRole('button', { name: 'Show on Chart' }).click();
    const second = page.getByRole('region', { name: 'Chart 2' });
    await second.getByRole('region', { name: 'ETHUSDT chart' }).waitFor({ timeout: 30_000 });
    await page
      .getByRole('region', { name: 'Chart 1' })
      .getByRole('region', { name: 'BTCUSDT chart' })
      .waitFor();
    await second
      .locator('[data-testid=chart-canvas][data-phase=ready]')
      .waitFor({ timeout: 30_000 });
    await screenshot(page, 'portfolio-charts-1440-light');
  }, 300_000);
});
