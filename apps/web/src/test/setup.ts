import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeEach, vi } from 'vitest';
import { firstChartDrawn } from '../shared/firstChart';
import { clearToasts } from '../shared/notify';
import { resetQueryClient } from '../shared/queryClient';

// jsdom draws no chart: the panels that follow the first drawn chart (shared/firstChart.ts)
// load at once instead of after its 3 s fallback.
firstChartDrawn();

// antd's async UI (toasts, tab switches) and a lazily loaded panel's first import (its
// modules are transformed on first use) can take several seconds on a busy 2-core machine.
configure({ asyncUtilTimeout: 15_000 });

// jsdom lacks matchMedia; antd's responsive helpers and our theme read it.
if (typeof window.matchMedia !== 'function') {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

// jsdom lacks ResizeObserver; antd tables and tabs observe their size.
if (typeof window.ResizeObserver !== 'function') {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  window.ResizeObserver = ResizeObserverStub;
}

// jsdom has no canvas: a 2D context is null (silently, instead of jsdom's 'not implemented'
// error), so charts show their no-canvas fallback and the rest of a page renders.
HTMLCanvasElement.prototype.getContext = (() =>
  null) as typeof HTMLCanvasElement.prototype.getContext;

// jsdom does not implement pseudo-element styles; antd asks for them when measuring.
const computedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => computedStyle(element);

// No server behind unit tests: a request a test did not stub stays pending (as on a slow
// network) instead of failing with jsdom's relative-URL error and logging it.
beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(() => new Promise<Response>(() => {})),
  );
});

afterEach(async () => {
  cleanup();
  // a toast shown with no App loads antd's static message and draws in its own root, which
  // no cleanup unmounts: it is shown now and taken down, not drawn after the document is gone
  if (!vi.isFakeTimers()) await clearToasts();
  // React flushes the unmount's passive effects in a scheduler task (setImmediate): let it
  // run now, not after the file's last test, when jsdom's window is gone
  if (!vi.isFakeTimers()) {
    for (let i = 0; i < 2; i += 1) await new Promise((resolve) => setImmediate(resolve));
  }
  // server state never leaks from one test into the next
  resetQueryClient();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

// React's scheduler runs its work in time slices of a few milliseconds, one `setImmediate` each:
// on a busy machine (two test files at once on two cores) a file's last unmount or toast can
// still be queued when its last test ends, and would run after jsdom's window is gone
// ("window is not defined"). A timer lets every queued slice run first.
afterAll(async () => {
  if (!vi.isFakeTimers()) await new Promise((resolve) => setTimeout(resolve, 50));
});
