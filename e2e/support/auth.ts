import { expect } from 'vitest';
import type { Page } from 'playwright-core';

export const DEMO_EMAIL = 'demo@example.com';

/** Logs in through the login page as a user would. */
export async function loginThroughPage(page: Page, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByRole('heading', { name: 'Login' }).waitFor();
  await page.getByLabel('Email').fill(DEMO_EMAIL);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
  await page.getByText('Login successful').first().waitFor();
}

/** The value localStorage holds under `key` in the page. */
export function stored(page: Page, key: string): Promise<string | null> {
  return page.evaluate((k) => window.localStorage.getItem(k), key);
}

/** Waits until the page's path is `path`. */
export async function expectPath(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === path, { timeout: 15_000 });
  expect(new URL(page.url()).pathname).toBe(path);
}
