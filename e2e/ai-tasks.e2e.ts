import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot } from './support/browser.ts';
import { modal, openDesktop } from './support/desktop.ts';
import { animationsDone, settledBox, waitUntil } from './support/wait.ts';

/*
 * AI strategy tasks against the started product, whose Ollama provider is the local
 * OpenAI-compatible test server. From the Python Code Editor: Generate Strategy Prompt sends
 * two tasks whose model never answers (they hold both worker slots), a task created from the
 * task list then waits ('Waiting'); deleting the two frees the slots and the list, polling
 * by itself, shows the task go to COMPLETED. Its Details show the code and the in- and
 * out-of-sample results, its Conversation History the steps, and Create as Strategy opens it
 * in the editor, selected.
 */

const baseURL = inject('baseURL');
const password = inject('demoPassword');
const aiServer = inject('aiTestServerURL');

/** A strategy that trades both ways on crossings of two averages, using past bars only. */
const CROSSOVER = [
  'def main(data_array):',
  '    closes = [row[6] for row in data_array]',
  '    trades = []',
  '    position = None',
  '    for i in range(31, len(data_array)):',
  '        fast = sum(closes[i - 9:i + 1]) / 10',
  '        slow = sum(closes[i - 29:i + 1]) / 30',
  '        prev_fast = sum(closes[i - 10:i]) / 10',
  '        prev_slow = sum(closes[i - 30:i]) / 30',
  '        up = prev_fast <= prev_slow and fast > slow',
  '        down = prev_fast >= prev_slow and fast < slow',
  '        if position is not None and (up or down):',
  "            position['close_date'] = data_array[i][0]",
  "            position['close_price'] = closes[i]",
  "            position['status'] = 'YES'",
  '            trades.append(position)',
  '            position = None',
  '        if position is None and (up or down):',
  "            position = {'open_date': data_array[i][0], 'open_price': closes[i],",
  "                        'lots': 1 if up else -1, 'status': 'NOT',",
  "                        'close_date': None, 'close_price': None}",
  '    if position is not None:',
  '        trades.append(position)',
  '    return trades',
].join('\n');

const MAIN = 'E2E-CROSSOVER: trade the crossings of the 10-bar and 30-bar averages';

let browser: Browser;
let page: Page;
let taskId = '';
let strategyName = '';

async function script(...scripts: Record<string, unknown>[]): Promise<void> {
  const response = await fetch(`${aiServer}/__script`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ scripts }),
  });
  expect(response.ok).toBe(true);
}

/** The demo user's API settings before this file changed them (restored after). */
let savedSettings: unknown = null;

beforeAll(async () => {
  await fetch(`${aiServer}/__reset`, { method: 'POST' });
  browser = await launchBrowser();
  page = await openDesktop(browser, baseURL, password);
  savedSettings = await (await page.request.get(`${baseURL}/api/settings`)).json();
});
afterAll(async () => {
  // the journeys share the demo user: leave its API settings as they were found
  if (savedSettings) {
    const restored = await page.request.post(`${baseURL}/api/settings`, { data: savedSettings });
    expect(restored.ok()).toBe(true);
  }
  await page?.context().close();
  await browser?.close();
});

/** The open modal titled `title` exactly. */
function dialog(title: string): Locator {
  return modal(page, new RegExp(`^${title}$`));
}

/** The Python Code Editor (its title also names the chart's symbol). */
function editor(): Locator {
  return modal(page, 'Python Code Editor');
}

function taskList(): Locator {
  return dialog('AI Strategy Task List');
}

function rows(): Locator {
  return taskList().locator('tbody tr.ant-table-row');
}

/** The row of a task by its id (the first cell). */
function row(id: string): Locator {
  return rows().filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^${id}$`) }) });
}

async function toast(text: string): Promise<void> {
  await page.locator('.ant-message').getByText(text).first().waitFor({ timeout: 30_000 });
}

async function openEditor(): Promise<void> {
  const chart = page.locator('[data-chart-id]').filter({
    has: page.locator('[data-testid=chart-canvas][data-phase=ready]'),
  });
  await chart.first().waitFor({ timeout: 30_000 });
  const button = chart.first().getByRole('button', { name: 'Python Code Editor' });
  await waitUntil(
    () => button.isEnabled(),
    (enabled) => enabled,
  );
  await button.click();
  await editor().locator('.monaco-editor .view-lines').waitFor({ timeout: 60_000 });
}

/** Saves the API Settings with the local provider (no key), through the assistant. */
async function useLocalModel(): Promise<void> {
  await page.getByRole('button', { name: 'AI Trading Assistant' }).click();
  const chat = page.getByRole('dialog', { name: 'AI Trading Assistant' });
  await chat.getByRole('button', { name: 'API Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'API Settings' });
  await settings.getByLabel('Service Provider').click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: 'Ollama (local)' })
    .click();
  await waitUntil(
    () => settings.getByLabel('API Endpoint').inputValue(),
    (value) => value === `${aiServer}/v1`,
  );
  await settings.getByRole('button', { name: 'Save' }).click();
  await toast('API settings saved');
  await settings.waitFor({ state: 'hidden' });
  await chat.getByRole('button', { name: 'Close' }).click();
  await chat.waitFor({ state: 'hidden' });
}

/** Generate Strategy Prompt → Send Prompt with `logic`; the task list opens. */
async function sendPrompt(logic: string): Promise<void> {
  await editor().getByRole('button', { name: 'Generate Strategy Prompt' }).click();
  const modal = dialog('Strategy Generation Prompt');
  const send = modal.getByRole('button', { name: 'Send Prompt' });
  expect(await send.isDisabled()).toBe(true);
  await modal.getByLabel('Strategy logic').fill(logic);
  const preview = await modal.getByTestId('ai-prompt-preview').innerText();
  expect(preview).toContain('main(data_array)');
  expect(preview).toContain("status 'NOT' means the trade is still open");
  expect(preview.trimEnd().endsWith(logic)).toBe(true);
  await send.click();
  await toast('Prompt sent');
  await modal.waitFor({ state: 'hidden' });
  await taskList().waitFor();
}

async function closeTop(modal: Locator): Promise<void> {
  await modal.locator('.ant-modal-close').click();
  await modal.waitFor({ state: 'hidden' });
}

/**
 * Waits until the modal's opening animation ended (a running task's spinning icon animates
 * for ever, so endless animations are left out), then saves a screenshot.
 */
async function shoot(modal: Locator, name: string): Promise<void> {
  const running = await waitUntil(
    () =>
      modal.evaluate(
        (el) =>
          el
            .getAnimations({ subtree: true })
            .filter((a) => a.effect?.getTiming().iterations !== Infinity).length,
      ),
    (count) => count === 0,
  );
  expect(running, 'animations still running').toBe(0);
  await screenshot(page, name);
}

describe('AI strategy tasks', () => {
  it('Generate Strategy Prompt sends tasks for the active chart', async () => {
    // two tasks whose model never answers: they keep both worker slots busy
    await script(
      { match: 'BLOCKER-ONE', stallBeforeHeaders: true },
      { match: 'BLOCKER-TWO', stallBeforeHeaders: true },
      {
        match: 'E2E-CROSSOVER',
        reasoning: ['Two averages of past closes only.'],
        // slow enough that the list sees it running before the poll that sees it done
        content: ['Here is the strategy:\n\n', `\`\`\`python\n${CROSSOVER}\n\`\`\`\n`, 'Done.'],
        delayMs: 2_500,
      },
    );
    await useLocalModel();
    await openEditor();
    await sendPrompt('BLOCKER-ONE: buy every tenth bar');
    await closeTop(taskList());
    await sendPrompt('BLOCKER-TWO: sell every tenth bar');
    await waitUntil(
      () => rows().count(),
      (n) => n === 2,
    );
    expect(await rows().count()).toBe(2);
  });

  it('creates a task from the list: it waits while the workers are busy', async () => {
    await taskList().getByRole('button', { name: 'Create AI Strategy Task' }).click();
    const form = dialog('Create AI Strategy Task');
    await form.getByRole('button', { name: 'Create' }).click();
    await form.getByText('Please enter strategy description').waitFor();
    await form.getByLabel('Strategy description').fill(MAIN);
    await form.getByText(`${MAIN.length} / 1000`).waitFor();
    // the saved settings are the form's start: the local provider, its endpoint, no key
    expect(await form.getByLabel('API Base URL').inputValue()).toBe(`${aiServer}/v1`);
    await form.getByText('Backtested on the active chart:').waitFor();
    await shoot(form, 'ai-task-create');
    await form.getByRole('button', { name: 'Create' }).click();
    await toast('AI strategy task created successfully');
    await form.waitFor({ state: 'hidden' });

    await waitUntil(
      () => rows().count(),
      (n) => n === 3,
    );
    // newest first
    taskId = (await rows().first().locator('td').first().innerText()).trim();
    expect(taskId).toMatch(/^\d+$/);
    expect(await row(taskId).locator('td').nth(1).innerText()).toBe('Waiting');
    const others = await rows().locator('td:nth-child(2)').allInnerTexts();
    expect(others.slice(1)).toEqual(['PROCESSING', 'PROCESSING']);
    await taskList().getByTestId('ai-polling').waitFor();
    const { width } = await settledBox(taskList());
    expect(width).toBeGreaterThan(1440 * 0.75);
    await shoot(taskList(), 'ai-task-list-waiting');
  });

  it('deleting the busy tasks lets it run; polling shows it COMPLETED', async () => {
    for (const id of await rows().locator('td:first-child').allInnerTexts()) {
      if (id.trim() === taskId) continue;
      await row(id.trim()).getByRole('button', { name: 'Delete' }).click();
      const confirm = page.locator('.ant-popover:visible');
      await confirm.waitFor();
      await animationsDone(confirm);
      await confirm.getByRole('button', { name: 'OK' }).click();
      await toast('Task deleted successfully');
      await row(id.trim()).waitFor({ state: 'detached' });
    }
    // no Refresh: the list asks again every 10 s while the task waits or runs
    const seen: string[] = [];
    const status = await waitUntil(
      async () => {
        const text = await row(taskId).locator('td').nth(1).innerText();
        if (seen.at(-1) !== text) seen.push(text);
        return text;
      },
      (text) => text === 'COMPLETED' || text === 'FAILED',
      180_000,
    );
    expect(status).toBe('COMPLETED');
    // it was still waiting or running when the deletions' refetch showed it
    expect(['Waiting', 'PROCESSING']).toContain(seen[0]);
    expect(seen.at(-1)).toBe('COMPLETED');
    expect(await row(taskId).locator('td').nth(2).innerText()).toBe('0');
    // nothing is waiting or running any more: the list stops polling
    expect(await taskList().getByTestId('ai-polling').count()).toBe(0);
    await shoot(taskList(), 'ai-task-list');
  }, 240_000);

  it('Details show the code, the in- and out-of-sample results and the look-ahead verdict', async () => {
    // the editor announces the finished task and offers its Details
    const notice = page
      .locator('.ant-notification-notice')
      .filter({ hasText: `AI task ${taskId} completed` });
    await notice.waitFor({ timeout: 30_000 });
    // the notice outlives the editor's page: pressed on the profile, it goes back to the
    // workspace and opens the Details there at once
    await closeTop(taskList());
    await closeTop(editor());
    const side = page.getByRole('navigation', { name: 'Side panel buttons' });
    await side.getByRole('button', { name: 'Profile' }).click();
    await page.getByRole('button', { name: 'Open Profile Page' }).click();
    await page.waitForURL(/\/profile/);
    await notice.getByRole('button', { name: 'View Details' }).click();
    await notice.waitFor({ state: 'detached' });
    await page.waitForURL(/\/desktop/);
    const details = dialog(`AI Task Details · ${taskId}`);
    await details.getByText('Basic Information').waitFor({ timeout: 30_000 });
    await expect.poll(() => details.getByText(MAIN).count()).toBe(1);
    const code = details.getByTestId('ai-task-code');
    expect(await code.innerText()).toContain('def main(data_array):');
    await details.getByRole('button', { name: 'Show Full Code' }).click();
    expect(await code.innerText()).toContain('return trades');
    await details.getByRole('button', { name: 'Show Preview' }).waitFor();
    expect(await code.innerText()).toContain('return trades');
    const results = details.getByRole('table', { name: 'Backtest Results' });
    const header = await results.locator('thead').innerText();
    expect(header).toContain('In-sample (first 70 %)');
    expect(header).toContain('Out-of-sample (last 30 %)');
    expect(await details.getByTestId('ai-lookahead').innerText()).toContain(
      'Look-ahead check passed',
    );
    expect(
      Number(await details.getByTestId('equity-chart').getAttribute('data-points')),
    ).toBeGreaterThan(1);
    const { width } = await settledBox(details);
    expect(Math.round(width)).toBe(800);
    await shoot(details, 'ai-task-details');
    await results.scrollIntoViewIfNeeded();
    await screenshot(page, 'ai-task-details-results');

    // the trades and equity curve in the results view
    await details.getByRole('button', { name: 'Trades and equity curve' }).click();
    const view = dialog('Backtest Results');
    await view.getByText('Performance Metrics').waitFor();
    await expect.poll(() => view.locator('tbody tr.ant-table-row').count()).toBeGreaterThan(0);
    await view.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await view.waitFor({ state: 'hidden' });
  });

  it('Conversation History shows the steps in order with their count', async () => {
    const details = dialog(`AI Task Details · ${taskId}`);
    await details
      .locator('.ant-modal-footer')
      .getByRole('button', { name: 'Conversation History' })
      .click();
    const history = dialog(`AI Task Conversation History · ${taskId}`);
    const total = await waitUntil(
      async () => (await history.getByTestId('ai-total-messages').innerText()).trim(),
      (text) => /Total messages: [1-9]/.test(text),
    );
    const steps = await history
      .locator('[data-step]')
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-step')));
    expect(total).toBe(`Total messages: ${steps.length}`);
    expect(steps.slice(0, 3)).toEqual(['initial_prompt', 'generate_prompt', 'ai_response']);
    expect(steps).toContain('validation');
    expect(steps).toContain('backtest');
    // one attempt: no retry selector
    expect(await history.getByRole('combobox', { name: 'Attempt' }).count()).toBe(0);
    await shoot(history, 'ai-task-conversation');
    await closeTop(history);
  });

  it('Create as Strategy opens it in the editor, selected', async () => {
    const details = dialog(`AI Task Details · ${taskId}`);
    await details.getByRole('button', { name: 'Create as Strategy' }).click();
    const nameDialog = dialog('Create Strategy');
    const input = nameDialog.getByLabel('Strategy name');
    expect(await input.inputValue()).toMatch(/^AI_Strategy_\d{4}(_\d\d){5}$/);
    await input.fill('');
    await animationsDone(nameDialog);
    await nameDialog.getByRole('button', { name: 'OK' }).click();
    await nameDialog.getByText('Please enter a strategy name').waitFor();
    strategyName = `E2E AI ${Date.now().toString(36)}`;
    await input.fill(strategyName);
    await nameDialog.getByRole('button', { name: 'OK' }).click();
    await toast('Strategy created successfully');
    await nameDialog.waitFor({ state: 'hidden' });

    // the task modals make way for the editor, which shows the new strategy selected
    await details.waitFor({ state: 'hidden' });
    await taskList().waitFor({ state: 'hidden' });
    await waitUntil(
      async () => (await editor().locator('.ant-select').first().textContent()) ?? '',
      (label) => label.includes(strategyName),
    );
    const text = await waitUntil(
      async () =>
        (await editor().locator('.monaco-editor .view-lines').innerText()).replace(/\u00a0/g, ' '),
      (t) => t.includes('prev_fast'),
      30_000,
    );
    expect(text).toContain('def main(data_array):');
  });

  it('the modals in the dark theme', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await waitUntil(
      () => page.evaluate(() => document.documentElement.dataset.theme),
      (theme) => theme === 'dark',
    );
    await editor().getByRole('button', { name: 'AI Task List' }).click();
    await row(taskId).waitFor();
    await shoot(taskList(), 'ai-task-list-dark');
    await row(taskId).getByRole('button', { name: 'Details' }).click();
    const details = dialog(`AI Task Details · ${taskId}`);
    await details.getByText('Basic Information').waitFor({ timeout: 30_000 });
    await shoot(details, 'ai-task-details-dark');
    await details.getByRole('table', { name: 'Backtest Results' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'ai-task-details-results-dark');
    await closeTop(details);
    await row(taskId).getByRole('button', { name: 'Conversation History' }).click();
    const history = dialog(`AI Task Conversation History · ${taskId}`);
    await history.locator('[data-step]').first().waitFor({ timeout: 30_000 });
    await shoot(history, 'ai-task-conversation-dark');
    await closeTop(history);
    await closeTop(taskList());
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
