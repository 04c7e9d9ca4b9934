import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, devices, type Browser, type BrowserContext, type Page } from 'playwright-core';

const root = new URL('../..', import.meta.url).pathname;
export const SCREENSHOT_DIR = join(root, 'artifacts/screenshots');

/** Debian's Chromium, started the way this machine allows (no background networking). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export type Viewport = 'desktop' | 'phone';

/** Uncaught errors of every page opened through newContext, not yet reported. */
const pageErrors: string[] = [];

/** How many recent lines of each page's console and failed calls a failure report shows. */
const TRAIL_LINES = 40;

/** Pages opened through newContext and still open, with their recent console and calls. */
const openPages = new Map<Page, string[]>();

function remember(page: Page, line: string): void {
  const trail = openPages.get(page);
  if (!trail) return;
  trail.push(`${new Date().toISOString().slice(11, 23)} ${line}`);
  if (trail.length > TRAIL_LINES) trail.shift();
}

/**
 * For a failed journey (support/page-errors.ts): a screenshot of every open page under
 * artifacts/screenshots/failed-<name>-<n>.png and each page's recent console lines and
 * failed calls, so a failure seen only in CI can be read afterwards.
 */
export async function reportOpenPages(name: string): Promise<string> {
  const slug = name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80);
  const reports: string[] = [];
  let n = 0;
  for (const [page, trail] of openPages) {
    n += 1;
    const file = `failed-${slug}-${n}`;
    try {
      await screenshot(page, file);
    } catch (error) {
      reports.push(`(no screenshot of ${page.url()}: ${String(error)})`);
    }
    reports.push(`page ${n} ${page.url()} (${file}.png):\n  ${trail.join('\n  ') || '(quiet)'}`);
  }
  return reports.join('\n');
}

/**
 * Hands over (and forgets) the uncaught page errors seen since the last call. The e2e
 * setup file fails every journey that leaves one behind (support/page-errors.ts).
 */
export function takePageErrors(): string[] {
  return pageErrors.splice(0);
}

/**
 * A fresh browser context (empty storage) at a desktop or phone size. Every page it
 * opens reports its uncaught errors (`pageerror`) and Content Security Policy violations
 * to takePageErrors.
 */
export async function newContext(
  browser: Browser,
  viewport: Viewport,
  baseURL: string,
): Promise<BrowserContext> {
  let context: BrowserContext;
  if (viewport === 'phone') {
    const { defaultBrowserType: _ignored, ...phone } = devices['iPhone 13'];
    context = await browser.newContext({ ...phone, baseURL, colorScheme: 'light' });
  } else {
    context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      baseURL,
      colorScheme: 'light',
    });
  }
  context.on('page', (page) => {
    openPages.set(page, []);
    page.on('close', () => openPages.delete(page));
    page.on('response', (response) => {
      if (response.status() >= 400) {
        remember(page, `${response.status()} ${response.request().method()} ${response.url()}`);
      }
    });
    page.on('requestfailed', (request) => {
      remember(
        page,
        `failed ${request.method()} ${request.url()}: ${request.failure()?.errorText}`,
      );
    });
    page.on('pageerror', (error) => {
      pageErrors.push(`${page.url()}: ${error.stack ?? error.message}`);
    });
    page.on('console', (message) => {
      const text = message.text();
      remember(page, `console.${message.type()}: ${text}`);
      // A Content Security Policy violation (a blocked script, style, worker or frame) is
      // logged by the browser, not thrown: count it as a page error too.
      if (message.type() === 'error' && /Content Security Policy/i.test(text)) {
        pageErrors.push(`${page.url()}: CSP violation: ${text}`);
      }
    });
  });
  return context;
}

/**
 * Saves a full-page screenshot under artifacts/screenshots/<name>.png. Running animations (a
 * dialog's zoom, a toast sliding in) are finished first, so the picture shows where they end,
 * not a frame on the way.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({
    path: join(SCREENSHOT_DIR, `${name}.png`),
    fullPage: true,
    animations: 'disabled',
  });
}
