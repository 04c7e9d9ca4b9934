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

type Box = { x: number; y: number; width: number; height: number };

const sameBox = (a: Box | null, b: Box | null): boolean =>
  a !== null &&
  b !== null &&
  a.x === b.x &&
  a.y === b.y &&
  a.width === b.width &&
  a.height === b.height;

/**
 * The box of `locator` once it is on screen and has stopped moving: two reads 50 ms apart
 * give the same box. A box read once may be null (the element is being drawn anew: a lazy
 * part replaced it) or the box of a frame of its opening animation. An element that goes for
 * good after it was seen (a toast closing) answers its last box; after `timeoutMs` the last box
 * seen is answered (the caller's assertion judges it); none at all throws.
 */
export async function settledBox(locator: Locator, timeoutMs = 15_000): Promise<Box> {
  const deadline = Date.now() + timeoutMs;
  const read = (timeout: number) => locator.boundingBox({ timeout }).catch(() => null);
  let before = await read(timeoutMs);
  let seen = before;
  let missed = 0;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const box = await read(1_000);
    if (sameBox(before, box)) return box!;
    if (box) {
      seen = box;
      missed = 0;
    } else if (seen && ++missed > 1) {
      break; // gone after it was seen, not only drawn anew
    }
    before = box;
  }
  if (!seen) throw new Error(`Not on screen: ${String(locator)}`);
  return seen;
}
