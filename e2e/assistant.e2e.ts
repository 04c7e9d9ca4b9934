import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loginThroughPage, stored } from './support/auth.ts';
import { launchBrowser, newContext, screenshot } from './support/browser.ts';
import { settledBox, waitUntil } from './support/wait.ts';

/*
 * The AI Trading Assistant against the started product, whose Ollama provider is a local
 * OpenAI-compatible test server: the floating button opens the chat, a question without a
 * key asks for one, API Settings choose the local provider, Enter streams an answer with
 * its reasoning, a code block is copied and applied into the Python Code Editor, the next
 * question carries the chart and the editor's code, an upstream failure says so, and the
 * phone layout shows the chat full screen above its bottom bar.
 */

const baseURL = inject('baseURL');
const password = inject('demoPassword');
const aiServer = inject('aiTestServerURL');

let browser: Browser;
let context: BrowserContext;
let page: Page;

type RecordedRequest = {
  path: string;
  body: { messages?: { role: string; content: string }[]; model?: string } | null;
};

/** Queues answers of the test model (each chat request takes the next one). */
async function script(...scripts: Record<string, unknown>[]): Promise<void> {
  const response = await fetch(`${aiServer}/__script`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ scripts }),
  });
  expect(response.ok).toBe(true);
}

/** The chat requests the test model received. */
async function modelRequests(): Promise<RecordedRequest[]> {
  const response = await fetch(`${aiServer}/__requests`);
  const { requests } = (await response.json()) as { requests: RecordedRequest[] };
  return requests.filter((r) => r.path.endsWith('/chat/completions'));
}

beforeAll(async () => {
  await fetch(`${aiServer}/__reset`, { method: 'POST' });
  browser = await launchBrowser();
  context = await newContext(browser, 'desktop', baseURL);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  page = await context.newPage();
  await loginThroughPage(page, password);
  await page.waitForURL(/\/desktop/, { timeout: 30_000 });
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

function chat(p: Page = page): Locator {
  return p.getByRole('dialog', { name: 'AI Trading Assistant' });
}

function settings(p: Page = page): Locator {
  return p.getByRole('dialog', { name: 'API Settings' });
}

async function toast(text: string, p: Page = page): Promise<void> {
  await p.locator('.ant-message').getByText(text).first().waitFor({ timeout: 30_000 });
}

async function ask(text: string, p: Page = page): Promise<void> {
  const input = chat(p).getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
}

function codeEditor(p: Page = page): Locator {
  return p
    .locator('.ant-modal')
    .filter({ has: p.locator('.ant-modal-title', { hasText: 'Python Code Editor' }) });
}

/** The offered change: a diff with Accept and Reject over the editor. */
function proposal(p: Page = page): Locator {
  return codeEditor(p).getByRole('region', { name: 'Review the proposed change' });
}

/** Text of the lines of a Monaco editor in screen order (Monaco reuses line elements). */
function linesOf(root: Locator): Promise<string> {
  return root.evaluate((element) =>
    Array.from(element.querySelectorAll<HTMLElement>('.view-lines .view-line'))
      .map((line) => ({ top: parseFloat(line.style.top) || 0, text: line.textContent ?? '' }))
      .sort((a, b) => a.top - b.top)
      .map((line) => line.text.replace(/\u00a0/g, ' ').trimEnd())
      .join('\n')
      .trimEnd(),
  );
}

/** The editor's own text (it stays mounted, hidden, under a diff). */
function mainEditorText(p: Page = page): Promise<string> {
  return linesOf(codeEditor(p).getByTestId('strategy-editor').locator('.monaco-editor').first());
}

/** The two sides of the shown diff. */
async function diffSides(p: Page = page): Promise<{ original: string; modified: string }> {
  const diff = proposal(p).getByTestId('strategy-diff');
  return {
    original: await linesOf(diff.locator('.editor.original')),
    modified: await linesOf(diff.locator('.editor.modified')),
  };
}

/** The latest answer bubble. */
function lastAnswer(p: Page = page): Locator {
  return chat(p).getByRole('article', { name: 'Assistant' }).last();
}

describe('AI Trading Assistant', () => {
  it('opens from the floating button with a welcome and four suggestions', async () => {
    await page.getByRole('button', { name: 'AI Trading Assistant' }).click();
    await chat().getByText("Hi, I'm your AI Trading Assistant").waitFor({ timeout: 30_000 });
    await expect.poll(() => chat().getByRole('log').getByRole('listitem').count()).toBe(4);
    expect(await chat().getByRole('button', { name: 'API Settings' }).count()).toBe(1);
    const width = await waitUntil(
      async () => (await page.locator('.assistant-drawer').boundingBox())?.width ?? 0,
      (w) => w === 600,
    );
    expect(width).toBe(600);
  });

  it('asks for a key first: the default provider needs one', async () => {
    await ask('Hello');
    await toast('Please set OpenAI API Key first');
    await settings().waitFor();
    // the question waits in the input
    expect(await chat().getByRole('textbox', { name: 'Message' }).inputValue()).toBe('Hello');
  });

  it('saves the API settings: the local provider fills its endpoint and first model', async () => {
    const modal = settings();
    await modal.getByLabel('OpenAI API Key').waitFor();
    expect(await modal.getByLabel('OpenAI API Key').getAttribute('type')).toBe('password');
    expect(await modal.getByLabel('API Endpoint').getAttribute('readonly')).not.toBeNull();
    await modal.getByLabel('Service Provider').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: 'Ollama (local)' })
      .click();
    await waitUntil(
      () => modal.getByLabel('API Endpoint').inputValue(),
      (value) => value === `${aiServer}/v1`,
    );
    expect(await modal.getByLabel('API Endpoint').inputValue()).toBe(`${aiServer}/v1`);
    // the local server's own models, the first chosen
    await waitUntil(
      async () => (await modal.locator('.ant-form-item').nth(3).textContent()) ?? '',
      (text) => text.includes('test-model'),
    );
    await screenshot(page, 'assistant-settings');
    await modal.getByRole('button', { name: 'Save' }).click();
    await toast('API settings saved');
    await settings().waitFor({ state: 'hidden' });
    expect(await stored(page, 'aiChatProvider')).toBe('ollama');
    expect(await stored(page, 'aiChatModel')).toBe('test-model');
    expect(await stored(page, 'aiChatBaseURL')).toBe(`${aiServer}/v1`);
  });

  it("sends with Enter and streams the answer, then 'Deep Thinking Completed'", async () => {
    await script({
      reasoning: ['Two averages ', 'of the close ', 'make a crossover.'],
      content: [
        '## Moving-average crossover\n\n',
        '| Average | Bars |\n| --- | --- |\n| fast | 10 |\n| slow | 30 |\n\n',
        '```python\ndef main(data_array):\n',
        '    closes = [row[6] for row in data_array]\n',
        '    return []\n```\n\nIt buys when `fast` crosses above `slow`.',
      ],
      delayMs: 150,
    });
    await ask('Write a moving average crossover strategy');
    // while the answer streams, Stop replaces Send
    await chat().getByRole('button', { name: 'Stop' }).waitFor({ timeout: 30_000 });
    const thinking = lastAnswer().getByRole('button', { name: /^Deep Thinking/ });
    await thinking.waitFor({ timeout: 30_000 });
    await lastAnswer()
      .getByRole('heading', { name: 'Moving-average crossover' })
      .waitFor({ timeout: 30_000 });
    await chat().getByRole('button', { name: 'Send' }).waitFor({ timeout: 30_000 });
    const label = (await thinking.textContent()) ?? '';
    expect(label).toMatch(/^Deep Thinking Completed \(Time: \d+ seconds\)$/);
    // collapsed until expanded
    expect(await thinking.getAttribute('aria-expanded')).toBe('false');
    await thinking.click();
    await lastAnswer().getByRole('region').getByText('make a crossover.').waitFor();
    expect(await lastAnswer().getByRole('table').textContent()).toContain('slow');
    const code = lastAnswer().getByRole('figure', { name: 'python code' });
    expect(await code.locator('.hljs-keyword').first().textContent()).toBe('def');
    // the question went to the model with the active chart in the system message
    const [request] = (await modelRequests()).slice(-1);
    const system = request?.body?.messages?.[0];
    expect(system?.role).toBe('system');
    expect(system?.content).toMatch(/active chart: [A-Z]+/);
    expect(request?.body?.messages?.at(-1)).toEqual({
      role: 'user',
      content: 'Write a moving average crossover strategy',
    });
    await screenshot(page, 'assistant-answer');
  });

  it("copies a code block: 'Copied'", async () => {
    const code = lastAnswer().getByRole('figure', { name: 'python code' });
    await code.getByRole('button', { name: 'Copy' }).click();
    await code.getByRole('button', { name: 'Copied' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(
      'def main(data_array):\n    closes = [row[6] for row in data_array]\n    return []',
    );
    // back to Copy after 1.5 s
    await code.getByRole('button', { name: 'Copy' }).waitFor({ timeout: 5_000 });
  });

  it('applies a code block into the Python Code Editor, opening it, after Accept', async () => {
    const code = lastAnswer().getByRole('figure', { name: 'python code' });
    await code.getByRole('button', { name: 'Apply' }).click();
    const editor = codeEditor();
    // the change shows as a diff first; the chat makes way for it
    const diff = proposal();
    await diff.getByRole('button', { name: 'Accept' }).waitFor({ timeout: 60_000 });
    await chat().waitFor({ state: 'hidden' });
    await waitUntil(
      () => diffSides(),
      (sides) => sides.modified.includes('closes = [row[6] for row in data_array]'),
      30_000,
    );
    await screenshot(page, 'assistant-apply-diff');
    await diff.getByRole('button', { name: 'Accept' }).click();
    await diff.waitFor({ state: 'detached' });
    const text = await waitUntil(
      () => mainEditorText(),
      (t) => t.includes('closes = [row[6] for row in data_array]'),
      30_000,
    );
    expect(text).toContain('closes = [row[6] for row in data_array]');
    // the Default strategy stays selected and unsaved: the code is an unsaved copy
    expect(await editor.locator('.ant-select').first().textContent()).toContain('Default Strategy');
    await screenshot(page, 'assistant-applied');
    // a backtest of the applied code: its outcome goes along with the next question
    await editor.getByRole('button', { name: 'Run Code' }).click();
    const results = page
      .locator('.ant-modal')
      .filter({ has: page.locator('.ant-modal-title', { hasText: 'Backtest Results' }) });
    await results.waitFor({ timeout: 60_000 });
    await results.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await results.waitFor({ state: 'hidden' });
    await editor.getByRole('button', { name: 'Close' }).first().click();
    await editor.waitFor({ state: 'hidden' });
    // the chat made way for the diff; the round button brings it back as it was
    await page.getByRole('button', { name: 'AI Trading Assistant' }).click();
    await code.getByRole('button', { name: 'Apply' }).waitFor({ timeout: 5_000 });
  });

  it("sends the editor's code with the next question", async () => {
    await ask('Explain this code');
    await lastAnswer().getByRole('figure').first().waitFor({ timeout: 30_000 });
    const [request] = (await modelRequests()).slice(-1);
    const system = request?.body?.messages?.[0]?.content ?? '';
    expect(system).toContain("The code in the user's editor");
    expect(system).toContain('closes = [row[6] for row in data_array]');
    // and the outcome of its last backtest, metrics or error
    expect(system).toMatch(/last backtest of this code/);
    // the history goes along, without the reasoning
    const roles = request?.body?.messages?.map((m) => m.role);
    expect(roles).toEqual(['system', 'user', 'assistant', 'user']);
  });

  it('shows the error toast and bubble when the model fails', async () => {
    await script({ status: 500, error: { message: 'model crashed' } });
    await ask('Once more');
    await toast('An error occurred, please try again');
    const alert = lastAnswer().getByRole('alert');
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.textContent()).toContain('Sorry, an error occurred. Please try again.');
    await screenshot(page, 'assistant-error');
  });

  it('keeps the conversation when closed and reopened; a new conversation clears it', async () => {
    await chat().getByRole('button', { name: 'Close' }).click();
    await chat().waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'AI Trading Assistant' }).click();
    await chat().getByText('Once more').waitFor();
    await chat().getByRole('button', { name: 'New conversation' }).click();
    await chat().getByText("Hi, I'm your AI Trading Assistant").waitFor();
    await expect.poll(() => chat().getByText('Once more').count()).toBe(0);
  });
});

/** A saved strategy of 57 lines, as a trader's own work would be. */
function savedWork(): string {
  const lines = ['def main(data_array):', '    # my saved work', '    trades = []'];
  for (let i = 0; lines.length < 56; i += 1) lines.push(`    level_${i} = ${i} * 2`);
  lines.push('    return trades');
  return `${lines.join('\n')}\n`;
}

describe('Apply on a saved strategy: a diff, nothing saved before Accept', () => {
  const name = `E2E apply ${Date.now().toString(36)}`;
  const work = savedWork();
  const offered = 'def main(data_array):\n    return []';
  /** The bodies of every save (POST /api/strategies/) the page sends. */
  const saves: { name: string; code: string }[] = [];

  async function savedCode(): Promise<string | null> {
    const answer = await page.request.get('/api/strategies/');
    const body = (await answer.json()) as { strategies: { name: string; code: string }[] };
    return body.strategies.find((s) => s.name === name)?.code ?? null;
  }

  async function applyAnswer(): Promise<void> {
    await script({ content: ['Shorter:\n\n```python\n', `${offered}\n`, '```\n'] });
    await ask('Make my strategy shorter');
    const answer = chat()
      .getByRole('article', { name: 'Assistant' })
      .filter({ hasText: 'Shorter:' })
      .last();
    const code = answer.getByRole('figure', { name: 'python code' });
    await code.getByRole('button', { name: 'Apply' }).waitFor({ timeout: 30_000 });
    await code.getByRole('button', { name: 'Apply' }).click();
    await proposal().getByRole('button', { name: 'Accept' }).waitFor({ timeout: 30_000 });
  }

  beforeAll(async () => {
    page.on('request', (request) => {
      if (request.method() !== 'POST') return;
      if (new URL(request.url()).pathname !== '/api/strategies/') return;
      saves.push(request.postDataJSON() as { name: string; code: string });
    });
    const answer = await page.request.post('/api/strategies/', {
      data: { name, code: work, keep_version: true },
    });
    expect(answer.status()).toBe(200);
  });

  it('the assistant is reachable over the open editor, its button covering none of it', async () => {
    if (await chat().isVisible()) {
      await chat().getByRole('button', { name: 'Close' }).click();
      await chat().waitFor({ state: 'hidden' });
    }
    const chart = page.locator('[data-chart-id]').filter({
      has: page.locator('[data-testid=chart-canvas][data-phase=ready]'),
    });
    await chart.first().getByRole('button', { name: 'Python Code Editor' }).click();
    const editor = codeEditor();
    await editor.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 60_000 });
    await editor.locator('.ant-select').first().click();
    await page.locator('.ant-select-dropdown:visible').getByTitle(name, { exact: true }).click();
    await waitUntil(
      () => mainEditorText(),
      (t) => t.includes('level_20 = 20 * 2'),
      30_000,
    );
    const launcher = page.getByRole('button', { name: 'AI Trading Assistant' });
    const round = await settledBox(launcher);
    const modal = await settledBox(
      editor.locator('.ant-modal-container, .ant-modal-content').first(),
    );
    expect(overlaps(round, modal)).toBe(false);
    await screenshot(page, 'assistant-button-over-editor');
    await launcher.click();
    await chat().getByRole('textbox', { name: 'Message' }).waitFor();
    await screenshot(page, 'assistant-over-editor');
  });

  it('Apply shows the diff; Reject leaves the editor and the server as they were', async () => {
    await applyAnswer();
    const sides = await waitUntil(
      () => diffSides(),
      (d) => d.modified.includes('return []') && d.original.includes('level_0'),
      30_000,
    );
    expect(sides.modified).toBe(offered);
    await screenshot(page, 'assistant-apply-saved-diff');
    // the diff in the dark theme on a 1024 px screen
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await waitUntil(
      () => page.evaluate(() => document.documentElement.dataset.theme),
      (theme) => theme === 'dark',
    );
    await proposal().getByRole('button', { name: 'Reject' }).waitFor();
    await screenshot(page, 'assistant-apply-saved-diff-1024-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1440, height: 900 });
    await waitUntil(
      () => page.evaluate(() => document.documentElement.dataset.theme),
      (theme) => theme === 'light',
    );
    // nothing reached the editor, so nothing reached the server
    expect(await mainEditorText()).toContain('level_20 = 20 * 2');
    expect(saves).toEqual([]);
    await proposal().getByRole('button', { name: 'Reject' }).click();
    await proposal().waitFor({ state: 'detached' });
    expect(await mainEditorText()).toContain('level_20 = 20 * 2');
    expect(saves).toEqual([]);
    expect(await savedCode()).toBe(work);
  });

  it('Accept makes it an edit: auto-saved as a new version, and Ctrl+Z brings the work back', async () => {
    await page.getByRole('button', { name: 'AI Trading Assistant' }).click();
    await applyAnswer();
    expect(saves).toEqual([]);
    await proposal().getByRole('button', { name: 'Accept' }).click();
    await proposal().waitFor({ state: 'detached' });
    expect(
      await waitUntil(
        () => mainEditorText(),
        (t) => t === offered,
      ),
    ).toBe(offered);
    await waitUntil(
      () => Promise.resolve(saves.length),
      (n) => n === 1,
      15_000,
    );
    expect(saves[0]).toMatchObject({ name, code: offered });
    await codeEditor().getByText('Auto-save successful').waitFor({ timeout: 15_000 });
    expect(await savedCode()).toBe(offered);
    // the saved work is a version: Restore previous version would find it
    const answer = await page.request.get(`/api/strategies/${encodeURIComponent(name)}/versions`);
    const { versions } = (await answer.json()) as { versions: { length: number }[] };
    expect(versions.map((v) => v.length)).toContain(work.length);

    // an ordinary edit: Ctrl+Z in the editor returns to the saved work (saved again)
    await page.keyboard.press('Control+Z');
    await waitUntil(
      () => mainEditorText(),
      (t) => t.includes('level_20 = 20 * 2'),
    );
    await waitUntil(
      () => savedCode(),
      (code) => code === work,
      15_000,
    );
  });
});

function overlaps(
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/**
 * The visible controls (buttons, links, fields, tabs) whose boxes meet the round button's,
 * by their names; empty when there is no button.
 */
function controlsUnderLauncher(p: Page): Promise<string[]> {
  return p.evaluate(() => {
    const launcher = document.querySelector('.assistant-launcher');
    if (!launcher) return [];
    const r = launcher.getBoundingClientRect();
    const controls = document.querySelectorAll<HTMLElement>(
      'button, a[href], input, select, textarea, [role="button"], [role="tab"], [role="checkbox"], [role="radio"], [role="combobox"], [role="menuitem"], [role="slider"]',
    );
    return Array.from(controls)
      .filter((el) => el !== launcher && !launcher.contains(el) && !el.contains(launcher))
      .filter((el) => {
        const b = el.getBoundingClientRect();
        if (b.width === 0 || b.height === 0 || getComputedStyle(el).visibility === 'hidden') {
          return false;
        }
        return b.left < r.right && r.left < b.right && b.top < r.bottom && r.top < b.bottom;
      })
      .map((el) => el.getAttribute('aria-label') || el.textContent?.trim() || el.tagName);
  });
}

async function expectClear(p: Page, control: Locator): Promise<void> {
  const round = await settledBox(p.getByRole('button', { name: 'AI Trading Assistant' }));
  const box = await settledBox(control);
  expect(overlaps(round, box)).toBe(false);
}

describe('the round button covers no control', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`1440 × 900 with the order ticket's TP and SL on, and 1024 × 768 (${scheme})`, async () => {
      for (const viewport of [
        { width: 1440, height: 900 },
        { width: 1024, height: 768 },
      ]) {
        const desk = await newContext(browser, 'desktop', baseURL);
        try {
          const p = await desk.newPage();
          await p.setViewportSize(viewport);
          await p.emulateMedia({ colorScheme: scheme });
          await loginThroughPage(p, password);
          await p.waitForURL(/\/desktop/, { timeout: 30_000 });
          const panel = p.getByRole('complementary', { name: 'Trading' });
          const side = p.getByRole('navigation', { name: 'Side panel buttons' });
          await side.waitFor({ timeout: 30_000 });
          if (!(await panel.isVisible()))
            await side.getByRole('button', { name: 'Trading' }).click();
          const ticket = p.getByRole('group', { name: 'BTCUSDT Order' }).first();
          await ticket.getByRole('checkbox', { name: 'Take Profit' }).check();
          await ticket.getByRole('checkbox', { name: 'Stop Loss' }).check();
          const place = p.getByRole('button', { name: 'Place Buy Order' });
          await place.waitFor();
          await p.getByRole('toolbar', { name: 'Chart tools' }).first().waitFor();
          await expectClear(p, place);
          await expectClear(p, p.getByRole('toolbar', { name: 'Chart tools' }).first());
          expect(await controlsUnderLauncher(p)).toEqual([]);
          await screenshot(p, `assistant-button-${viewport.width}-${scheme}`);
        } finally {
          await desk.close();
        }
      }
    });

    it(`390 × 844: above the bottom bar with the chart, none on My (${scheme})`, async () => {
      const phoneContext = await newContext(browser, 'phone', baseURL);
      try {
        const p = await phoneContext.newPage();
        await p.setViewportSize({ width: 390, height: 844 });
        await p.emulateMedia({ colorScheme: scheme });
        await loginThroughPage(p, password);
        const button = p.getByRole('button', { name: 'AI Trading Assistant' });
        await button.waitFor({ timeout: 30_000 });
        const bar = p.getByRole('navigation', { name: 'Main navigation' });
        const round = await settledBox(button);
        expect(round.y + round.height).toBeLessThanOrEqual((await settledBox(bar)).y);
        await expectClear(p, p.getByRole('toolbar', { name: 'Chart tools' }).first());
        expect(await controlsUnderLauncher(p)).toEqual([]);
        await screenshot(p, `assistant-button-390-${scheme}`);
        await bar.getByRole('button', { name: 'My' }).click();
        await p.getByRole('button', { name: 'Logout' }).waitFor();
        expect(await button.count()).toBe(0);
        expect(await controlsUnderLauncher(p)).toEqual([]);
        await screenshot(p, `assistant-button-390-my-${scheme}`);
      } finally {
        await phoneContext.close();
      }
    });
  }
});

describe('AI Trading Assistant on a phone', () => {
  let phoneContext: BrowserContext;
  let phone: Page;

  beforeAll(async () => {
    phoneContext = await newContext(browser, 'phone', baseURL);
    phone = await phoneContext.newPage();
    await loginThroughPage(phone, password);
    await phone.waitForURL(/\/phone|\/desktop/, { timeout: 30_000 });
  });
  afterAll(async () => {
    await phoneContext?.close();
  });

  it('sits above the bottom bar and opens full screen', async () => {
    const button = phone.getByRole('button', { name: 'AI Trading Assistant' });
    await button.waitFor({ timeout: 30_000 });
    const bar = await settledBox(phone.getByRole('navigation', { name: 'Main navigation' }));
    const round = await settledBox(button);
    expect(round.y + round.height).toBeLessThanOrEqual(bar.y);
    await button.click();
    await chat(phone).getByText("Hi, I'm your AI Trading Assistant").waitFor({ timeout: 30_000 });
    const viewport = phone.viewportSize()!;
    const box = await waitUntil(
      async () => (await phone.locator('.assistant-fullscreen').boundingBox()) ?? null,
      (b) => b !== null && Math.round(b.width) === viewport.width,
    );
    expect(Math.round(box!.width)).toBe(viewport.width);
    // the settings saved on the desktop hold: the local provider needs no key
    await ask('Write a strategy', phone);
    await lastAnswer(phone)
      .getByRole('figure', { name: 'python code' })
      .waitFor({ timeout: 30_000 });
    // no code editor on phones, so no Apply; Copy stays
    expect(await lastAnswer(phone).getByRole('button', { name: 'Apply' }).count()).toBe(0);
    expect(await lastAnswer(phone).getByRole('button', { name: 'Copy' }).count()).toBe(1);
    const scrollWidth = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(viewport.width);
    await screenshot(phone, 'assistant-phone');
  });
});
