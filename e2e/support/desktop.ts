import type { Browser, Frame, Locator, Page } from 'playwright-core';
import { loginThroughPage } from './auth.ts';
import { newContext } from './browser.ts';

/*
 * The set-up of the journeys that work in the desktop workspace's dialogs (the code editor,
 * the backtest's results, the optimiser, the AI tasks): a logged-in desktop page, and a
 * dialog found by its title.
 */

/**
 * A page of a new desktop context, logged in through the login page and on the workspace.
 * `watch` is called with the page before it loads anything (to listen to its requests).
 */
export async function openDesktop(
  browser: Browser,
  baseURL: string,
  password: string,
  watch?: (page: Page) => void,
): Promise<Page> {
  const context = await newContext(browser, 'desktop', baseURL);
  const page = await context.newPage();
  watch?.(page);
  await loginThroughPage(page, password);
  await page.waitForURL(/\/desktop/, { timeout: 30_000 });
  return page;
}

/** The open dialog whose title has `title` (a modal of antd, by its title bar). */
export function modal(scope: Page | Frame, title: string | RegExp): Locator {
  return scope
    .locator('.ant-modal')
    .filter({ has: scope.locator('.ant-modal-title', { hasText: title }) });
}
