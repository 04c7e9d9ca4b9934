import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Runs `act` and answers the text of the first toast matching `text` that was not on screen
 * before: a toast of an earlier order may still be showing, so "the first success toast"
 * is not necessarily this action's.
 */
export async function newToastText(
  page: Page,
  text: RegExp,
  act: () => Promise<void>,
): Promise<string> {
  const notices = page.locator('.ant-message-notice').filter({ hasText: text });
  const texts = async () => (await notices.allTextContents()).map((t) => t.trim());
  const before = new Set(await texts());
  await act();
  let fresh = '';
  await expect
    .poll(async () => (fresh = (await texts()).find((t) => !before.has(t)) ?? ''), {
      timeout: 15_000,
    })
    .not.toBe('');
  return fresh;
}

/** The id at the end of 'Order successful! Order ID: 12'. */
export function idOf(message: string): string {
  const match = /ID: (\d+)/.exec(message);
  if (!match?.[1]) throw new Error(`No id in "${message}"`);
  return match[1];
}

/** Runs `act` and answers the id in the toast it brought (see newToastText). */
export async function idOfNewToast(
  page: Page,
  text: RegExp,
  act: () => Promise<void>,
): Promise<string> {
  return idOf(await newToastText(page, text, act));
}
