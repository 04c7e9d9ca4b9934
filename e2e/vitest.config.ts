import { defineConfig } from 'vitest/config';

// End-to-end journeys: one product process started as the README starts it (`npm start`),
// driven by Debian's Chromium through playwright-core. Files run one after another.
export default defineConfig({
  test: {
    name: 'e2e',
    root: new URL('.', import.meta.url).pathname,
    include: ['**/*.e2e.ts'],
    globalSetup: ['support/global-setup.ts'],
    setupFiles: ['support/page-errors.ts'],
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 240_000,
    // a page on a loaded machine may take seconds to show what a poll waits for: vitest's
    // default of one second fails a journey where the product is only slow
    expect: { poll: { timeout: 15_000, interval: 100 } },
  },
});
