import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loginThroughPage } from './support/auth.ts';
import { launchBrowser, newContext, screenshot } from './support/browser.ts';
import { waitUntil } from './support/wait.ts';

/*
 * The strategy workbench against the started product: the code editor opened from a chart's
 * toolbar shows the Default strategy's code, Run Code backtests it on that chart's bars and
 * shows metrics and trades, the trades are drawn on the chart, the run's printed lines reach
 * the log, and a saved strategy auto-saves, keeps its runs and shows them again.
 */

const baseURL = inject('baseURL');
const password = inject('demoPassword');

let browser: Browser;
let context: BrowserContext;
let page: Page;
let chartId: string;
/** Every URL the page requested: Monaco must come from the product, never a CDN. */
const requested: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  context = await newContext(browser, 'desktop', baseURL);
  page = await context.newPage();
  page.on('request', (request) => requested.push(request.url()));
  await loginThroughPage(page, password);
  await page.waitForURL(/\/desktop/, { timeout: 30_000 });
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

function dialog(title: string): Locator {
  return page
    .locator('.ant-modal')
    .filter({ has: page.locator('.ant-modal-title', { hasText: title }) });
}

function editor(): Locator {
  return dialog('Python Code Editor');
}

async function editorText(): Promise<string> {
  return (await editor().locator('.monaco-editor .view-lines').innerText()).replace(/\u00a0/g, ' ');
}

async function toast(text: string): Promise<void> {
  await page.locator('.ant-message').getByText(text).first().waitFor({ timeout: 30_000 });
}

describe('strategy workbench', () => {
  it('opens the Python Code Editor from a chart with the Default strategy code', async () => {
    const chart = page.locator('[data-chart-id]').filter({
      has: page.locator('[data-testid=chart-canvas][data-phase=ready]'),
    });
    await chart.first().waitFor({ timeout: 30_000 });
    chartId = (await chart.first().getAttribute('data-chart-id')) ?? '';
    const button = page
      .locator(`[data-chart-id="${chartId}"]`)
      .getByRole('button', { name: 'Python Code Editor' });
    await waitUntil(
      () => button.isEnabled(),
      (enabled) => enabled,
    );
    await button.click();
    await editor().locator('.monaco-editor .view-lines').waitFor({ timeout: 60_000 });
    const text = await waitUntil(editorText, (t) => t.includes('def main'), 30_000);
    expect(text).toContain('def main');
    // 80vw once the modal's opening (zoom) animation has ended
    const width = await waitUntil(
      async () => (await editor().boundingBox())?.width ?? 0,
      (w) => w > 1440 * 0.75,
    );
    expect(width).toBeGreaterThan(1440 * 0.75);
    await expect(editor().locator('.ant-select').textContent()).resolves.toContain(
      'Default Strategy',
    );
    for (const name of ['Run History', 'AI Task List', 'Generate Strategy Prompt', 'Run Logs']) {
      expect(await editor().getByRole('button', { name }).count()).toBe(1);
    }
    const foreign = requested.filter(
      (url) => !url.startsWith(baseURL) && !url.startsWith('data:') && !url.startsWith('blob:'),
    );
    expect(foreign).toEqual([]);
    await screenshot(page, 'strategy-editor');
  });

  it('Run Code backtests on the chart and shows metrics and trades', async () => {
    await editor().getByRole('button', { name: 'Run Code' }).click();
    const results = dialog('Backtest Results');
    await results.waitFor({ timeout: 90_000 });
    await results.getByText('Performance Metrics').waitFor();
    const metrics = await results.locator('.ant-table').first().innerText();
    expect(metrics).toContain('交易次数');
    expect(metrics).toContain('胜率');
    const trades = results.locator('.ant-table').nth(1).locator('tbody tr.ant-table-row');
    const count = await trades.count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(5);
    // The equity curve is drawn: its canvases hold more than the background colour.
    const equity = results.getByTestId('equity-chart');
    expect(Number(await equity.getAttribute('data-points'))).toBeGreaterThan(1);
    const drawn = await waitUntil(
      () =>
        equity.evaluate((root) => {
          let count = 0;
          for (const canvas of Array.from(root.querySelectorAll('canvas'))) {
            const context = canvas.getContext('2d');
            if (!context || canvas.width === 0 || canvas.height === 0) continue;
            const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
            for (let i = 4; i < data.length; i += 4) {
              if (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2]) {
                count += 1;
              }
            }
          }
          return count;
        }),
      (count) => count > 500,
    );
    expect(drawn).toBeGreaterThan(500);
    // Default is read-only: its results cannot be saved.
    expect(await results.getByRole('button', { name: 'Save Results' }).isDisabled()).toBe(true);
    await page.waitForTimeout(500); // the modal's opening animation
    await screenshot(page, 'strategy-results');
  });

  it('Show on Chart draws the trades as markers', async () => {
    const canvas = page.locator(`[data-chart-id="${chartId}"] [data-testid=chart-canvas]`);
    const before = await canvas.screenshot();
    await dialog('Backtest Results').getByRole('button', { name: 'Show on Chart' }).click();
    await toast('Shown on chart');
    expect(Number(await canvas.getAttribute('data-markers'))).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = await canvas.screenshot();
    expect(after.equals(before)).toBe(false);
    await screenshot(page, 'strategy-markers');
  });

  it('the Execution Log shows the log socket and the run lines', async () => {
    await page
      .locator(`[data-chart-id="${chartId}"]`)
      .getByRole('button', { name: 'Python Code Editor' })
      .click();
    await editor().getByRole('button', { name: 'Run Logs' }).click();
    const log = dialog('Execution Log');
    await log.getByText('Backtest Log').waitFor();
    await log.getByText('Connected', { exact: true }).waitFor({ timeout: 15_000 });
    const text = await log.getByTestId('strategy-log').innerText();
    expect(text).toContain('Connection established, waiting for logs...');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await screenshot(page, 'strategy-log');
    await log.locator('.ant-modal-close').click();
  });

  it('saves as a new strategy, auto-saves an edit, keeps a run and shows it in Run History', async () => {
    const name = `E2E MA ${Date.now().toString(36)}`;
    await editor().getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Save as New Strategy' }).click();
    const nameModal = dialog('Save as New Strategy');
    await nameModal.getByRole('button', { name: 'OK' }).click();
    await nameModal.getByText('Please enter a strategy name').waitFor();
    await nameModal.getByPlaceholder('Please enter a strategy name').fill(name);
    await nameModal.getByRole('button', { name: 'OK' }).click();
    await toast('Strategy created successfully');
    await waitUntil(
      async () => (await editor().locator('.ant-select').textContent()) ?? '',
      (t) => t.includes(name),
    );

    // An edit is auto-saved after the debounce, then the indicator returns to idle.
    await editor().locator('.monaco-editor .view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText('\n# edited in the browser\n');
    const indicator = editor().getByTestId('save-indicator');
    const state = await waitUntil(
      () => indicator.getAttribute('data-state'),
      (s) => s === 'success' || s === 'error',
      10_000,
    );
    expect(state).toBe('success');
    expect(await indicator.innerText()).toBe('Auto-save successful');
    await waitUntil(
      () => indicator.getAttribute('data-state'),
      (s) => s === 'idle',
    );
    expect(await indicator.innerText()).toBe('Save Strategy');

    await editor().getByRole('button', { name: 'Run Code' }).click();
    const results = dialog('Backtest Results');
    await results.getByText('Performance Metrics').waitFor({ timeout: 90_000 });
    await results.getByRole('button', { name: 'Save Results' }).click();
    await toast('Run results saved successfully');
    await results.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();

    await editor().getByRole('button', { name: 'Run History' }).click();
    const history = dialog('Strategy Run History');
    const row = history.locator('tbody tr.ant-table-row');
    await row.first().waitFor({ timeout: 15_000 });
    expect(await row.count()).toBe(1);
    expect(await row.first().innerText()).toMatch(/%/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await screenshot(page, 'strategy-history');
    await row.first().getByRole('button', { name: 'View Details' }).click();
    await dialog('Backtest Results').getByText('Performance Metrics').waitFor();
    await dialog('Backtest Results')
      .locator('.ant-modal-footer')
      .getByRole('button', { name: 'Close' })
      .click();
    await row.first().getByRole('button', { name: 'Show on Chart' }).click();
    await toast('Shown on chart');
  });

  it('a strategy that raises shows the error alert with the tip', async () => {
    await page
      .locator(`[data-chart-id="${chartId}"]`)
      .getByRole('button', { name: 'Python Code Editor' })
      .click();
    await editor().locator('.monaco-editor .view-lines').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    // One line (Monaco auto-indents new lines), inserted like a paste (no auto-closed brackets).
    await page.keyboard.insertText(
      'def main(data_array): print("about to fail"); raise ValueError("boom")',
    );
    await editor().getByRole('button', { name: 'Run Code' }).click();
    const results = dialog('Backtest Results');
    await results.locator('.ant-alert-error').waitFor({ timeout: 90_000 });
    const alert = await results.locator('.ant-alert-error').innerText();
    expect(alert).toContain('boom');
    expect(alert).toContain('Execution Log');
    await results.getByText('No backtest data available').waitFor();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await screenshot(page, 'strategy-error');
    await results.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await editor().getByRole('button', { name: 'Run Logs' }).click();
    const log = dialog('Execution Log');
    await waitUntil(
      () => log.getByTestId('strategy-log').innerText(),
      (t) => t.includes('about to fail'),
    );
    expect(await log.getByTestId('strategy-log').innerText()).toContain('about to fail');
  });
});
