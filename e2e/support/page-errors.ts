import { afterAll, afterEach, beforeEach, expect, onTestFailed } from 'vitest';
import { reportOpenPages, takePageErrors } from './browser.ts';

// Every journey fails on an uncaught error in any of its pages: a user would see a broken
// screen (or nothing) where the journey's own assertions may still pass.
afterEach(() => {
  expect(takePageErrors(), 'uncaught page errors').toEqual([]);
});

afterAll(() => {
  expect(takePageErrors(), 'uncaught page errors after the last journey').toEqual([]);
});

// A failed journey leaves a screenshot of each open page and its recent console lines and
// failed calls (a flaky failure in CI can be read afterwards).
beforeEach((context) => {
  onTestFailed(async () => {
    const report = await reportOpenPages(context.task.name);
    process.stderr.write(`\n[${context.task.name}] open pages at the failure:\n${report}\n`);
  });
});
