import { afterAll, afterEach, expect } from 'vitest';
import { takePageErrors } from './browser.ts';

// Every journey fails on an uncaught error in any of its pages: a user would see a broken
// screen (or nothing) where the journey's own assertions may still pass.
afterEach(() => {
  expect(takePageErrors(), 'uncaught page errors').toEqual([]);
});

afterAll(() => {
  expect(takePageErrors(), 'uncaught page errors after the last journey').toEqual([]);
});
