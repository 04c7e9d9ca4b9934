import type { Locator } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Polls `read` every 250 ms until `accept` holds or `timeoutMs` passes; returns the last
 * value read, so the caller's assertion shows what the page had at the end.
 */
export async function waitUntil<T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!accept(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await read();
  }
  return value;
}

/**
 * Waits until no CSS animation or transition runs in the element or below it (a modal's
 * zoom). Endless ones (a spinner of a refresh in flight) never end and are not waited for.
 */
export async function animationsDone(locator: Locator): Promise<void> {
  const running = await waitUntil(
    () =>
      locator.evaluate(
        (el) =>
          el
            .getAnimations({ subtree: true })
            .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity).length,
      ),
    (count) => count === 0,
  );
  expect(running, 'animations still running').toBe(0);
}
