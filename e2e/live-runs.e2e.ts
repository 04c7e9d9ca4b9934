import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loginThroughPage } from './support/auth.ts';
import { launchBrowser, newContext, screenshot } from './support/browser.ts';
import { modal, openDesktop } from './support/desktop.ts';
import { newToastText } from './support/toasts.ts';
import { clickInDialog } from './support/trading.ts';
import { animationsDone, waitUntil } from './support/wait.ts';

/*
 * A strategy run live on paper from the code editor, against the started product: Run live
 * on paper starts it on the BTCUSDT 1m chart, its first bar close opens a position through
 * the paper engine (tagged Live in the positions table, a violet marker on the chart), the
 * Live Runs panel shows its evaluations and the comparison with its backtest, and Stop ends
 * it. Bars close on the product's clock (crypto trades around the clock), so the journey
 * waits for the next minute; it leaves no run running and no position of the run open. At
 * the next bar close the strategy closes its position (the settlement says Strategy) and the
 * panel, opened again, shows that evaluation without Refresh.
 */

const baseURL = inject('baseURL');
const password = inject('demoPassword');
const SYMBOL = 'BTCUSDT';
const STRATEGY = `Live e2e ${Date.now().toString(36)}`;
/** Holds one buy opened at the newest bar: each bar close closes the last one and opens anew. */
const CODE = [
  'def main(data_array):',
  '    last = data_array[-1]',
  "    print('bars', len(data_array), 'close', last[6])",
  "    return [{'status': 'NOT', 'open_date': last[0], 'open_price': last[6], 'lots': 1}]",
  '',
].join('\n');
/** The live runs' violet (#9254de) as drawn on a canvas. */
const LIVE_RGB = [146, 84, 222] as const;
/** A bar close (up to a minute away), the strategy's run in the sandbox and the order. */
const FIRST_ORDER_MS = 120_000;

let browser: Browser;
let page: Page;
let chartId = '';
let runId: string | null = null;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await openDesktop(browser, baseURL, password);
  const saved = await page.request.post('/api/strategies/', {
    data: { name: STRATEGY, code: CODE, create: true },
  });
  expect(saved.status(), await saved.text()).toBe(200);
});

afterAll(async () => {
  // a failed step leaves nothing running and no position of the run open for the others
  if (page && runId) {
    await page.request.post(`/api/live-runs/${runId}/stop`);
    const trader = JSON.parse(
      (await page.evaluate(() => localStorage.getItem('currentTrader'))) ?? '{}',
    ) as { uuid?: string; token?: string };
    const answer = await page.request.get(
      `/trading/order/position?uuid=${trader.uuid}&token=${trader.token}&channel=1&device=1`,
    );
    const body = (await answer.json()) as {
      data?: { orders?: { orderId: string; volume: number; comment: string }[] };
    };
    for (const position of body.data?.orders ?? []) {
      if (position.comment !== `live:${runId}`) continue;
      await page.request.post('/trading/order/close', {
        data: { ...trader, orderId: position.orderId, volume: position.volume, channel: 1 },
      });
    }
  }
  if (page) await page.request.delete(`/api/strategies/${encodeURIComponent(STRATEGY)}`);
  await page?.context().close();
  await browser?.close();
});

function dialog(title: string): Locator {
  return modal(page, title);
}

function editor(): Locator {
  return dialog('Python Code Editor');
}

function panel(): Locator {
  return dialog('Live Runs');
}

/** The rows of the trade table shown that a live run sent on the symbol (their Live tag). */
function taggedRows(): Locator {
  return page
    .locator('.ant-table-row')
    .filter({ has: page.locator('.live-run-tag') })
    .filter({ hasText: SYMBOL });
}

function chartCanvas(): Locator {
  return page.locator(`[data-chart-id="${chartId}"] [data-testid=chart-canvas]`);
}

/** Closes every open dialog (Escape closes the topmost). */
async function closeDialogs(): Promise<void> {
  const open = page.locator('.ant-modal-wrap:visible');
  for (let count = await open.count(); count > 0; count = await open.count()) {
    await page.keyboard.press('Escape');
    await waitUntil(
      () => open.count(),
      (n) => n < count,
    );
  }
}

/** Opens the Python Code Editor from the BTCUSDT chart (the first chart of a fresh workspace). */
async function openEditor(): Promise<void> {
  await closeDialogs();
  if (!chartId) {
    const chart = page.locator('[data-chart-id]').filter({
      has: page.locator(`[data-testid=chart-canvas][data-phase=ready]`),
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

async function openPanel(): Promise<void> {
  await openEditor();
  // The editor may still be zooming in: a click during its animation can miss the button,
  // so the click is made again until the panel shows.
  await animationsDone(editor());
  const table = panel().getByRole('table', { name: 'Live Runs' });
  for (let attempt = 0; attempt < 3 && !(await table.isVisible()); attempt += 1) {
    try {
      await editor().getByRole('button', { name: 'Live Runs' }).click({ timeout: 5_000 });
      await table.waitFor({ timeout: 10_000 });
    } catch {
      // not shown (or the button covered by the panel on its way): look again
    }
  }
  await table.waitFor();
}

async function setTheme(mode: 'dark' | 'light'): Promise<void> {
  await closeDialogs();
  const button = page.getByRole('button', { name: `Switch to ${mode} theme` });
  if ((await button.count()) === 0) return;
  await button.click();
  await page.waitForFunction((m) => document.documentElement.dataset.theme === m, mode);
}

/** How many pixels of the chart's canvases are the live runs' violet. */
function violetPixels(): Promise<number> {
  return chartCanvas().evaluate((root, rgb) => {
    let count = 0;
    for (const canvas of Array.from(root.querySelectorAll('canvas'))) {
      const context = canvas.getContext('2d');
      if (!context || canvas.width === 0 || canvas.height === 0) continue;
      const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 0; i < data.length; i += 4) {
        if (
          Math.abs(data[i]! - rgb[0]) < 16 &&
          Math.abs(data[i + 1]! - rgb[1]) < 16 &&
          Math.abs(data[i + 2]! - rgb[2]) < 16
        ) {
          count += 1;
        }
      }
    }
    return count;
  }, LIVE_RGB);
}

/** The first row of the Live Runs table (the newest run). */
function newestRun(): Locator {
  return panel()
    .getByRole('table', { name: 'Live Runs' })
    .locator('tbody tr.ant-table-row')
    .first();
}

describe('a strategy live on paper', () => {
  it('starts from the editor: Run live on paper beside Run Code, on the chart’s instrument', async () => {
    await openEditor();
    await editor().getByRole('combobox', { name: 'Select a strategy' }).click();
    await page.locator('.ant-select-item-option', { hasText: STRATEGY }).first().click();
    await waitUntil(
      async () =>
        (await editor().locator('.monaco-editor .view-lines').innerText()).includes('last'),
      (has) => has,
    );
    const buttons = await editor()
      .getByTestId('strategy-toolbar')
      .getByRole('button')
      .allInnerTexts();
    expect(buttons.slice(-4).map((t) => t.trim())).toEqual([
      'Live Runs',
      'Run live on paper',
      'Optimize',
      'Run Code',
    ]);
    await editor().getByRole('button', { name: 'Run live on paper' }).click();
    const form = dialog('Run live on paper');
    await form.getByLabel('Size (lots multiplier)').waitFor();
    expect(await form.innerText()).toContain(`Strategy: ${STRATEGY}`);
    const chosen = await form.locator('.ant-select-content').allInnerTexts();
    expect(chosen[1]).toMatch(new RegExp(`^${SYMBOL}`));
    expect(chosen[2]).toBe('1m');
    // a size the server would refuse is caught in the form
    await form.getByLabel('Size (lots multiplier)').fill('0');
    await form.getByRole('button', { name: 'Start' }).click();
    await form.getByText('Size must be above 0 and at most 1000').waitFor();
    await form.getByLabel('Size (lots multiplier)').fill('1');
    await form.getByLabel('Max open positions').fill('1');
    await animationsDone(form);
    await screenshot(page, 'live-runs-start-1440-light');

    const started = page.waitForResponse(
      (r) => r.url().endsWith('/api/live-runs') && r.request().method() === 'POST',
    );
    const text = await newToastText(page, /^Live run of /, () =>
      form.getByRole('button', { name: 'Start' }).click(),
    );
    expect(text).toBe(`Live run of ${STRATEGY} on ${SYMBOL} started`);
    const answer = await started;
    expect(answer.status()).toBe(201);
    runId = ((await answer.json()) as { id: string }).id;
    await panel().getByRole('table', { name: 'Live Runs' }).waitFor();
    await expect.poll(() => newestRun().innerText()).toContain('Running');
    expect(await newestRun().innerText()).toContain(STRATEGY);
  });

  it(
    'its first bar close opens a position: evaluations, the Live tag, the chart marker',
    async () => {
      const violetBefore = await violetPixels();
      // the panel polls the list while the run runs: its orders count moves by itself
      const orders = await waitUntil(
        async () => Number((await newestRun().locator('td').nth(7).innerText()).trim()),
        (n) => n >= 1,
        FIRST_ORDER_MS,
      );
      expect(orders).toBeGreaterThanOrEqual(1);
      const evaluations = panel().getByRole('table', { name: 'Evaluations' });
      await evaluations
        .getByText(/Open Buy 1 filled @/)
        .first()
        .waitFor({ timeout: 15_000 });
      expect(await evaluations.locator('tbody tr.ant-table-row').first().innerText()).toMatch(
        /Buy 1 @/,
      );
      await animationsDone(panel());
      await screenshot(page, 'live-runs-panel-1440-light');

      // the run's position in the normal positions table, tagged
      await closeDialogs();
      await page.getByRole('tab', { name: 'Positions', exact: true }).click();
      const tagged = taggedRows();
      await tagged.first().waitFor({ timeout: 15_000 });
      expect(await tagged.first().locator('.live-run-tag').innerText()).toBe('Live');

      // its fill on the chart, in the live runs' colour
      const violet = await waitUntil(violetPixels, (n) => n > violetBefore + 20, 15_000);
      expect(violet).toBeGreaterThan(violetBefore + 20);
      await screenshot(page, 'live-runs-chart-1440-light');
    },
    FIRST_ORDER_MS + 60_000,
  );

  it('compares the run with its backtest: P&L, the gap by cause, the trades, both curves', async () => {
    await openPanel();
    await panel().getByRole('tab', { name: 'Backtest vs forward' }).click();
    const trades = panel().getByRole('table', { name: 'Trades' });
    await trades.waitFor({ timeout: 60_000 });
    const summary = await panel().locator('.live-run-summary').innerText();
    expect(summary).toContain('Backtest P&L');
    expect(summary).toContain('Forward P&L');
    expect(summary).toContain('Gap (forward − backtest)');
    const causes = await panel().locator('.live-run-causes').innerText();
    for (const cause of ['Spread', 'Commission', 'Slippage', 'Missed bars']) {
      expect(causes).toContain(cause);
    }
    await expect.poll(() => trades.locator('tbody tr.ant-table-row').count()).toBeGreaterThan(0);
    await animationsDone(panel());
    await screenshot(page, 'live-runs-comparison-1440-light');
  });

  it('looks right in the dark theme and at 1024', async () => {
    await setTheme('dark');
    await openPanel();
    await animationsDone(panel());
    await screenshot(page, 'live-runs-panel-1440-dark');
    await page.setViewportSize({ width: 1024, height: 800 });
    await animationsDone(panel());
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    await screenshot(page, 'live-runs-panel-1024-dark');
    await setTheme('light');
    await openPanel();
    await animationsDone(panel());
    await screenshot(page, 'live-runs-panel-1024-light');
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it(
    'reopened after its next bar close, the panel shows that evaluation without Refresh; the strategy’s close says Strategy in Orders',
    async () => {
      await closeDialogs();
      // the next bar close (the panel is closed meanwhile): the strategy closes the position
      // it holds and opens a new one
      const run = await waitUntil(
        async () =>
          (
            (await (await page.request.get('/api/live-runs')).json()) as {
              runs: { id: string; evaluations: number; orders: number }[];
            }
          ).runs.find((r) => r.id === runId),
        (r) => (r?.orders ?? 0) >= 3,
        FIRST_ORDER_MS,
      );
      expect(run?.orders).toBeGreaterThanOrEqual(3);

      await openPanel();
      await panel().getByRole('tab', { name: 'Evaluations' }).click();
      const evaluations = panel().getByRole('table', { name: 'Evaluations' });
      await evaluations
        .getByText(/Close Sell 1 filled @/)
        .first()
        .waitFor({ timeout: 15_000 });
      const shown = await waitUntil(
        async () => Number((await newestRun().locator('td').nth(6).innerText()).trim()),
        (n) => n >= (run?.evaluations ?? 0),
      );
      expect(shown).toBeGreaterThanOrEqual(run?.evaluations ?? 0);
      await animationsDone(panel());
      await screenshot(page, 'live-runs-panel-next-evaluation-1440-light');

      // its settlement says who closed it, as a stop-loss's says Stop loss
      await closeDialogs();
      await page.getByRole('tab', { name: 'Orders', exact: true }).click();
      const closedByStrategy = taggedRows().filter({ hasText: 'Strategy' });
      await closedByStrategy.first().waitFor({ timeout: 15_000 });
      expect(await closedByStrategy.first().innerText()).not.toContain('Manual');
      // the Close Reason column is far right: the table scrolls inside itself
      await closedByStrategy
        .first()
        .getByRole('cell', { name: 'Strategy', exact: true })
        .scrollIntoViewIfNeeded();
      await screenshot(page, 'live-runs-settled-strategy-1440-light');
    },
    FIRST_ORDER_MS + 60_000,
  );

  it('Stop asks first, then the run stops', async () => {
    await openPanel();
    await panel()
      .getByRole('button', { name: `Stop the live run of ${STRATEGY} on ${SYMBOL}` })
      .first()
      .click();
    const confirm = page.locator('.ant-modal-confirm').filter({ hasText: 'Stop this live run?' });
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain('will send no more orders');
    await animationsDone(confirm);
    const text = await newToastText(page, /^Live run stopped$/, () =>
      confirm.getByRole('button', { name: 'Stop run' }).click(),
    );
    expect(text).toBe('Live run stopped');
    await waitUntil(
      async () => await newestRun().innerText(),
      (row) => row.includes('Stopped'),
    );
    expect(await newestRun().innerText()).toContain('Stopped');
    expect(
      await panel()
        .getByRole('button', { name: `Stop the live run of ${STRATEGY} on ${SYMBOL}` })
        .count(),
    ).toBe(0);
    const runs = (await (await page.request.get('/api/live-runs')).json()) as {
      runs: { id: string; status: string }[];
    };
    expect(runs.runs.find((r) => r.id === runId)?.status).toBe('stopped');
  });

  it('on a phone the run’s positions carry the tag too', async () => {
    const phone = await newContext(browser, 'phone', baseURL);
    const mobile = await phone.newPage();
    await loginThroughPage(mobile, password);
    await mobile.waitForURL(/\/phone/, { timeout: 30_000 });
    await mobile.getByRole('tab', { name: 'Positions', exact: true }).click();
    const tagged = mobile.locator('.live-run-tag');
    await tagged.first().waitFor({ timeout: 15_000 });
    await screenshot(mobile, 'live-runs-positions-390-light');
    await phone.close();
  });

  it('the settlement of the run’s position carries the tag in Orders', async () => {
    await closeDialogs();
    await page.getByRole('tab', { name: 'Positions', exact: true }).click();
    const open = taggedRows();
    // the run is stopped (and its open position was seen on the phone): close what it left
    // open, if its strategy did not close it itself
    if ((await open.count()) > 0) {
      await open
        .first()
        .getByRole('button', { name: new RegExp(`^Close ${SYMBOL} \\d+$`) })
        .click();
      const dialog = await clickInDialog(page, 'Close Position', 'Close Position');
      await dialog.waitFor({ state: 'hidden' });
    }
    await page.getByRole('tab', { name: 'Orders', exact: true }).click();
    const settled = taggedRows();
    await settled.first().waitFor({ timeout: 15_000 });
    expect(await settled.first().locator('.live-run-tag').innerText()).toBe('Live');
    await screenshot(page, 'live-runs-settled-1440-light');
  });
});
