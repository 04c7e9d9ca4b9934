import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot } from './support/browser.ts';
import { modal, openDesktop } from './support/desktop.ts';
import { waitUntil } from './support/wait.ts';

/*
 * Fair backtest scheduling seen by the user (issue 18, item 5): while the user's share of
 * the backtest slots is taken, a Run Code waits in the queue and its Run button says so;
 * it runs once the slot is free.
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

function editor(): Locator {
  return modal(page, 'Python Code Editor');
}

async function setTheme(mode: 'dark' | 'light'): Promise<void> {
  // the header's toggle, under the open editor (which would take a pointer click)
  await page.getByRole('button', { name: `Switch to ${mode} theme` }).dispatchEvent('click');
  await page.waitForFunction((m) => document.documentElement.dataset.theme === m, mode);
}

describe('a run waiting for a backtest slot', () => {
  it('shows its place on the Run button, then runs', async () => {
    const chart = page.locator('[data-chart-id]').filter({
      has: page.locator('[data-testid=chart-canvas][data-phase=ready]'),
    });
    await chart.first().waitFor({ timeout: 30_000 });
    const open = chart.first().getByRole('button', { name: 'Python Code Editor' });
    await waitUntil(
      () => open.isEnabled(),
      (enabled) => enabled,
    );
    await open.click();
    await editor().locator('.monaco-editor .view-lines').waitFor({ timeout: 60_000 });
    const run = editor().getByRole('button', { name: 'Run Code' });
    await waitUntil(
      () => run.isEnabled(),
      (enabled) => enabled,
      30_000,
    );

    // the user's one slot (of the server's two) is taken by another run of theirs
    const blocker = page.request.post('/api/backtest/run', {
      data: {
        code: 'import time\ndef main(data_array):\n    time.sleep(12)\n    return []\n',
        symbol: 'BTCUSDT',
        period: 'day',
        limit: 30,
        filename: 'blocker.py',
      },
      timeout: 60_000,
    });
    // the blocker has reached the sandbox
    await waitUntil(
      async () =>
        ((await (await page.request.get('/api/backtest/status')).json()) as { running: number })
          .running,
      (running) => running >= 1,
    );

    await run.click();
    const queued = editor().getByRole('button', { name: 'Queued: next to run' });
    await queued.waitFor({ timeout: 10_000 });
    expect(await queued.isVisible()).toBe(true);
    await screenshot(page, 'backtest-queued-1440-light');
    await setTheme('dark');
    await screenshot(page, 'backtest-queued-1440-dark');
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'backtest-queued-1024-dark');
    await setTheme('light');
    await screenshot(page, 'backtest-queued-1024-light');
    await page.setViewportSize({ width: 1440, height: 900 });

    const answer = await blocker;
    expect(answer.status()).toBe(200);
    // then the queued run starts and ends: its results open, the button is Run Code again
    const results = modal(page, 'Backtest Results');
    await results.waitFor({ timeout: 60_000 });
    await editor().getByRole('button', { name: 'Run Code' }).waitFor();
  }, 120_000);
});
