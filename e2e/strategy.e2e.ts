import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot } from './support/browser.ts';
import { modal, openDesktop } from './support/desktop.ts';
import { animationsDone, waitUntil } from './support/wait.ts';

/*
 * The strategy workbench against the started product: the code editor opened from a chart's
 * toolbar shows the Default strategy's code, Run Code backtests it on that chart's bars and
 * shows metrics and trades, the trades are drawn on the chart, the run's printed lines reach
 * the log, and a saved strategy auto-saves, keeps its runs (saved or not) and shows them again.
 */

const baseURL = inject('baseURL');
const password = inject('demoPassword');
// the strategy selector: the editor's one single select (the feeds picker is a multiple one)
const STRATEGY_SELECT = '.ant-select:not(.ant-select-multiple)';

let browser: Browser;
let page: Page;
let chartId: string;
/** Every URL the page requested: Monaco must come from the product, never a CDN. */
const requested: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  page = await openDesktop(browser, baseURL, password, (opened) =>
    opened.on('request', (request) => requested.push(request.url())),
  );
});
afterAll(async () => {
  await page?.context().close();
  await browser?.close();
});

function dialog(title: string): Locator {
  return modal(page, title);
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
    await openEditor();
    const text = await waitUntil(editorText, (t) => t.includes('def main'), 30_000);
    expect(text).toContain('def main');
    // 80vw once the modal's opening (zoom) animation has ended
    const width = await waitUntil(
      async () => (await editor().boundingBox())?.width ?? 0,
      (w) => w > 1440 * 0.75,
    );
    expect(width).toBeGreaterThan(1440 * 0.75);
    await expect(editor().locator(STRATEGY_SELECT).textContent()).resolves.toContain(
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
    await animationsDone(results);
    await screenshot(page, 'strategy-results');
  });

  it('Run Code takes the bars the trader chose: the API is asked for them and the result counts them', async () => {
    const results = dialog('Backtest Results');
    await results.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await results.waitFor({ state: 'hidden' });
    const bars = editor().getByRole('spinbutton', { name: 'Bars' });
    expect(await bars.inputValue()).toBe('1,000');
    // a count the API cannot take is refused before anything is sent
    await bars.fill('0');
    await editor().getByRole('button', { name: 'Run Code' }).click();
    await toast('Bars must be a whole number from 1 to 1,000,000');
    await bars.fill('700');
    const asked = page.waitForRequest(
      (request) => request.url().endsWith('/api/backtest/run') && request.method() === 'POST',
    );
    await editor().getByRole('button', { name: 'Run Code' }).click();
    expect(((await asked).postDataJSON() as { limit?: number }).limit).toBe(700);
    await results.waitFor({ timeout: 90_000 });
    const metrics = await results.locator('.ant-table').first().innerText();
    expect(metrics).toMatch(/Bars\s+700/);
    await results.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await results.waitFor({ state: 'hidden' });
    await bars.blur();
    expect(await bars.inputValue()).toBe('700');
    await animationsDone(editor());
    await screenshot(page, 'strategy-bars-1440');
    await colorScheme('dark');
    await screenshot(page, 'strategy-bars-1440-dark');
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'strategy-bars-1024-dark');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'strategy-bars-390-dark');
    await colorScheme('light');
    await screenshot(page, 'strategy-bars-390');
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'strategy-bars-1024');
    await page.setViewportSize({ width: 1440, height: 900 });
    await bars.fill('1000');
    // the results of the first run stay for the next journey step
    await editor().getByRole('button', { name: 'Run Code' }).click();
    await results.waitFor({ timeout: 90_000 });
  });

  it('Show on Chart draws the trades as markers', async () => {
    const canvas = page.locator(`[data-chart-id="${chartId}"] [data-testid=chart-canvas]`);
    const before = await canvas.screenshot();
    await dialog('Backtest Results').getByRole('button', { name: 'Show on Chart' }).click();
    await toast('Shown on chart');
    expect(Number(await canvas.getAttribute('data-markers'))).toBeGreaterThan(0);
    // the markers are drawn on the next frames: the canvas changes
    const changed = await waitUntil(
      async () => !(await canvas.screenshot()).equals(before),
      (differs) => differs,
    );
    expect(changed).toBe(true);
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
    await animationsDone(log);
    await screenshot(page, 'strategy-log');
    await log.locator('.ant-modal-close').click();
  });

  it('saves as a new strategy, auto-saves an edit, keeps a run and shows it in Run History', async () => {
    const name = `E2E MA ${Date.now().toString(36)}`;
    await editor().getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Save as New Strategy' }).click();
    const nameModal = dialog('Save as New Strategy');
    await nameModal.waitFor();
    await animationsDone(nameModal);
    await nameModal.getByRole('button', { name: 'OK' }).click();
    await nameModal.getByText('Please enter a strategy name').waitFor();
    await nameModal.getByPlaceholder('Please enter a strategy name').fill(name);
    await nameModal.getByRole('button', { name: 'OK' }).click();
    await toast('Strategy created successfully');
    await waitUntil(
      async () => (await editor().locator(STRATEGY_SELECT).textContent()) ?? '',
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
    await results.waitFor({ state: 'hidden' });

    // a second run, closed without Save Results, is kept all the same
    await editor().getByRole('button', { name: 'Run Code' }).click();
    await results.getByText('Performance Metrics').waitFor({ timeout: 90_000 });
    await results.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await results.waitFor({ state: 'hidden' });

    await editor().getByRole('button', { name: 'Run History' }).click();
    const history = dialog('Strategy Run History');
    const row = history.locator('tbody tr.ant-table-row');
    await row.first().waitFor({ timeout: 15_000 });
    await expect.poll(() => row.count()).toBe(2);
    // newest first: the run kept by itself, then the one saved
    expect(await row.nth(0).innerText()).toContain('Auto');
    expect(await row.nth(1).innerText()).toContain('Saved');
    expect(await row.first().innerText()).toMatch(/%/);
    await animationsDone(history);
    await screenshot(page, 'strategy-history');
    await page.setViewportSize({ width: 1024, height: 800 });
    await animationsDone(history);
    await screenshot(page, 'strategy-history-1024');
    await page.setViewportSize({ width: 1440, height: 900 });
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
    await animationsDone(results);
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

/** The theme the system asks for (the toolbar's switch is under the editor's modal). */
async function colorScheme(mode: 'dark' | 'light'): Promise<void> {
  await page.emulateMedia({ colorScheme: mode });
  await waitUntil(
    () => page.evaluate(() => document.documentElement.dataset.theme),
    (theme) => theme === mode,
  );
}

/** A saved strategy's code as the server holds it (the page's session). */
async function savedCode(name: string): Promise<string | null> {
  const answer = await page.request.get('/api/strategies/');
  const body = (await answer.json()) as { strategies: { name: string; code: string }[] };
  return body.strategies.find((s) => s.name === name)?.code ?? null;
}

async function saveThroughApi(name: string, code: string): Promise<void> {
  // an explicit save, as Save Current Strategy sends it: the replaced code becomes a version
  const answer = await page.request.post('/api/strategies/', {
    data: { name, code, keep_version: true },
  });
  expect(answer.status()).toBe(200);
}

/** About 2,300 characters in 24 lines: every line shows in the editor at 1440 × 900. */
function longStrategy(tag: string): string {
  const lines = ['def main(data_array):', `    # ${tag}`, '    records = []'];
  for (let i = 0; lines.length < 23; i += 1) {
    lines.push(
      `    fast_${i} = sum(row[6] for row in data_array[-${i + 5}:]) / ${i + 5}  # moving average of the closing price over ${i + 5} bars`,
    );
  }
  lines.push('    return records');
  return `${lines.join('\n')}\n`;
}

/**
 * The editor's visible lines in screen order, without trailing blanks. Monaco reuses line
 * elements, so their document order is not the screen order after edits: sort by offset.
 */
async function editorLines(): Promise<string> {
  const lines = await editor()
    .locator('.monaco-editor .view-lines')
    .evaluate((root) =>
      Array.from(root.querySelectorAll<HTMLElement>('.view-line'))
        .map((line) => ({ top: parseFloat(line.style.top) || 0, text: line.textContent ?? '' }))
        .sort((a, b) => a.top - b.top)
        .map((line) => line.text.replace(/\u00a0/g, ' ')),
    );
  return lines
    .map((line) => line.trimEnd())
    .join('\n')
    .trimEnd();
}

function asShown(code: string): string {
  return code
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trimEnd();
}

/** Closes every open dialog (Escape closes the topmost), then opens the editor afresh. */
async function openEditor(): Promise<void> {
  const open = page.locator('.ant-modal-wrap:visible');
  for (let count = await open.count(); count > 0; count = await open.count()) {
    await page.keyboard.press('Escape');
    await waitUntil(
      () => open.count(),
      (n) => n < count,
    );
  }
  if (!chartId) {
    const chart = page.locator('[data-chart-id]').filter({
      has: page.locator('[data-testid=chart-canvas][data-phase=ready]'),
    });
    await chart.first().waitFor({ timeout: 30_000 });
    chartId = (await chart.first().getAttribute('data-chart-id')) ?? '';
  }
  const button = page
    .locator(`[data-chart-id="${chartId}"]`)
    .getByRole('button', { name: 'Python Code Editor' });
  await waitUntil(
    () => button.isEnabled(),
    (enabled) => enabled,
  );
  await button.click();
  await editor().locator('.monaco-editor .view-lines').waitFor({ timeout: 60_000 });
}

async function chooseStrategy(name: string): Promise<void> {
  await editor().locator(STRATEGY_SELECT).click();
  await page.locator('.ant-select-dropdown:visible').getByTitle(name, { exact: true }).click();
}

/** Waits for the auto-save that follows the last edit to end (the indicator leaves 'saving'). */
async function autoSaveSettled(): Promise<string | null> {
  const indicator = editor().getByTestId('save-indicator');
  await waitUntil(
    () => indicator.getAttribute('data-state'),
    (s) => s === 'saving' || s === 'success' || s === 'error' || s === 'skipped',
    10_000,
  );
  return waitUntil(
    () => indicator.getAttribute('data-state'),
    (s) => s === 'success' || s === 'error' || s === 'skipped',
    10_000,
  );
}

describe('the editor never loses saved code', () => {
  it('undo stops at the loaded code and the server keeps it', async () => {
    const name = `E2E undo ${Date.now().toString(36)}`;
    const code = longStrategy('kept through undo');
    expect(code.length).toBeGreaterThan(2000);
    await saveThroughApi(name, code);
    await openEditor();
    await chooseStrategy(name);
    await waitUntil(editorLines, (t) => t === asShown(code));

    await editor().locator('.monaco-editor .view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('x');
    await waitUntil(editorLines, (t) => t.endsWith('x'));
    for (let i = 0; i < 6; i += 1) await page.keyboard.press('Control+Z');
    expect(await waitUntil(editorLines, (t) => t === asShown(code))).toBe(asShown(code));

    // The auto-save after the last undo stores the loaded code, not an empty editor.
    expect(await autoSaveSettled()).toBe('success');
    expect(await savedCode(name)).toBe(code);
    expect(await editorLines()).toBe(asShown(code));
  });

  it('re-selecting Default after editing it shows the template again', async () => {
    const template = (await (await page.request.get('/api/strategy/template')).json()) as {
      code: string;
    };
    // The template is longer than the editor: its first lines show.
    const isTemplate = (t: string) => t.length > 100 && asShown(template.code).startsWith(t);
    await openEditor();
    await chooseStrategy('Default Strategy (read-only)');
    await waitUntil(editorLines, isTemplate);
    await editor().locator('.monaco-editor .view-lines').click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.insertText('# scratch edit\n');
    await waitUntil(editorLines, (t) => t.startsWith('# scratch edit'));
    await chooseStrategy('Default Strategy (read-only)');
    expect(isTemplate(await waitUntil(editorLines, isTemplate))).toBe(true);
    // Loading is not an edit: undo does not bring the scratch edit back.
    await editor().locator('.monaco-editor .view-lines').click();
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('Control+Z');
    expect(isTemplate(await editorLines())).toBe(true);
  });

  it('Restore previous version brings back an earlier code and the server holds it', async () => {
    const name = `E2E restore ${Date.now().toString(36)}`;
    const first = longStrategy('first version');
    const second = longStrategy('second version');
    await saveThroughApi(name, first);
    await saveThroughApi(name, second);
    await openEditor();
    await chooseStrategy(name);
    await waitUntil(editorLines, (t) => t === asShown(second));

    await editor().getByRole('button', { name: 'Save', exact: true }).click();
    const item = page.getByRole('menuitem', { name: 'Restore previous version' });
    await waitUntil(
      () => item.getAttribute('aria-disabled'),
      (disabled) => disabled !== 'true',
    );
    await item.click();
    const versions = dialog(`Restore previous version · ${name}`);
    const rows = versions.locator('tbody tr.ant-table-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain(
      `${first.length.toLocaleString('en-US')} characters`,
    );
    await rows.first().click();
    const preview = versions.getByTestId('strategy-version-preview');
    await waitUntil(
      () => preview.innerText(),
      (t) => t.includes('# first version'),
    );
    expect(await preview.innerText()).toContain('# first version');
    await screenshot(page, 'strategy-versions');
    await versions.getByRole('button', { name: 'Restore' }).click();
    await toast('Previous version restored');

    expect(await waitUntil(editorLines, (t) => t === asShown(first))).toBe(asShown(first));
    expect(
      await waitUntil(
        () => savedCode(name),
        (c) => c === first,
      ),
    ).toBe(first);
    // The code it replaced is a version now: restoring again undoes the restore.
    const list = (await (
      await page.request.get(`/api/strategies/${encodeURIComponent(name)}/versions`)
    ).json()) as { versions: { id: number }[] };
    expect(list.versions).toHaveLength(2);
    const newest = (await (
      await page.request.get(
        `/api/strategies/${encodeURIComponent(name)}/versions/${list.versions[0]?.id}`,
      )
    ).json()) as { code: string };
    expect(newest.code).toBe(second);
  });

  it('the Generate Strategy Prompt button describes itself', async () => {
    const button = editor().getByRole('button', { name: 'Generate Strategy Prompt' });
    await button.locator('..').hover();
    const tip = page.locator('.ant-tooltip:visible');
    await tip.waitFor();
    expect(await tip.innerText()).toMatch(/^Generate Strategy Prompt: /);
  });
});
