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
    page.on('pageerror', (error) => {
      pageErrors.push(`${page.url()}: ${error.stack ?? error.message}`);
    });
    // A Content Security Policy violation (a blocked script, style, worker or frame) is
    // logged by the browser, not thrown: count it as a page error too.
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
        pageErrors.push(`${page.url()}: CSP violation: ${message.text()}`);
      }
    });
  });
  return context;
}

/** Saves a full-page screenshot under artifacts/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
