import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newContext, screenshot } from './support/browser.ts';

/*
 * The API reference (issue 18, OpenAPI): /api/docs is Swagger UI over the document the
 * server generates from its routes' schemas. It loads in a browser under the product's
 * headers without a page error or a CSP violation, lists the calls and shows a call's
 * body schema.
 */

const baseURL = inject('baseURL');

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  context = await newContext(browser, 'desktop', baseURL);
  page = await context.newPage();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

async function openDocs(): Promise<void> {
  await page.goto('/api/docs');
  await page.locator('.swagger-ui .info .title').waitFor({ timeout: 30_000 });
  await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
}

describe('the API reference at /api/docs', () => {
  it('loads Swagger UI with every group of calls', async () => {
    await openDocs();
    await expect(page.locator('.swagger-ui .info .title').textContent()).resolves.toContain(
      'Chart Terminal API',
    );
    for (const tag of ['Account', 'Trading', 'Market data', 'Strategies', 'Backtest', 'Charts']) {
      await expect(page.locator(`.opblock-tag[data-tag="${tag}"]`).count(), tag).resolves.toBe(1);
    }
    const paths = await page.locator('.opblock-summary-path').allTextContents();
    expect(paths.map((p) => p.replace(/\u200b/g, ''))).toEqual(
      expect.arrayContaining(['/trading/order/open', '/api/strategies/{name}']),
    );
  });

  it("shows a market order's body with its required fields", async () => {
    const open = page.locator('.opblock-post').filter({
      has: page.locator('.opblock-summary-path[data-path="/trading/order/open"]'),
    });
    await open.locator('.opblock-summary').click();
    const body = open.locator('.opblock-section-request-body');
    await body.waitFor({ timeout: 10_000 });
    await body.getByRole('tab', { name: 'Schema' }).click();
    const model = body.locator('.model-box');
    await model.waitFor();
    // swagger-ui shows the properties once the model is expanded
    const toggle = model.locator('.model-toggle.collapsed');
    if ((await toggle.count()) > 0) await toggle.first().click();
    await expect(model.textContent()).resolves.toMatch(/clientOrderId/);
    await expect(model.locator('.required').count()).resolves.toBeGreaterThan(0);
  });

  it('looks right at 1440, 1024 and 390 wide, light and dark', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [1440, 1024, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await page.locator('.swagger-ui .info .title').waitFor();
        await screenshot(page, `api-docs-${width}-${scheme}`);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
