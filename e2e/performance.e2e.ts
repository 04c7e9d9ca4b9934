import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loginThroughPage } from './support/auth.ts';
import { launchBrowser, newContext, screenshot, SCREENSHOT_DIR } from './support/browser';
import { waitUntil } from './support/wait.ts';

// The internal performance test page (spec section 2, Chinese labels): its labels, drawn
// charts, presets applied to the live pipeline, and the two embedded chart pages fed by
// PRICE_UPDATE messages. Screenshots at three widths in both themes.

const baseURL = inject('baseURL');
const password = inject('demoPassword');

/** Pixels of a chart's canvases that differ from its top-left (background) pixel. */
function drawnPixels(chart: Locator): Promise<number> {
  return chart.evaluate((root) => {
    let drawn = 0;
    for (const canvas of Array.from(root.querySelectorAll('canvas'))) {
      if (canvas.width === 0 || canvas.height === 0) continue;
      const context = canvas.getContext('2d');
      if (!context) continue;
      const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
      const [r, g, b] = [data[0]!, data[1]!, data[2]!];
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3]! < 200) continue;
        if (Math.abs(data[i]! - r) + Math.abs(data[i + 1]! - g) + Math.abs(data[i + 2]! - b) > 40) {
          drawn++;
        }
      }
    }
    return drawn;
  });
}

async function setTheme(page: Page, mode: 'dark' | 'light'): Promise<void> {
  const current = await page.evaluate(() => document.documentElement.dataset.theme);
  if (current === mode) return;
  await page
    .getByRole('button', { name: `Switch to ${mode} theme` })
    .first()
    .click();
  await page.waitForFunction((m) => document.documentElement.dataset.theme === m, mode);
}

describe('performance test page', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await newContext(browser, 'desktop', baseURL);
    page = await context.newPage();
    await loginThroughPage(page, password);
    await page.waitForURL(/\/desktop/, { timeout: 30_000 });
    await page.goto('/performance-test');
    await page.getByRole('heading', { name: '实时数据性能测试' }).waitFor({ timeout: 60_000 });
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('shows its Chinese labels and the test symbols', async () => {
    for (const text of [
      '测试品种',
      '性能监控',
      '性能控制面板',
      '预设性能测试',
      '价格图表',
      '嵌入图表页面',
      '价格更新延迟',
      '图表数据更新延迟',
      '最大数据点',
      '高性能',
      '平衡',
      '低性能',
      '成交量图（随机数据）',
    ]) {
      expect(await page.getByText(text, { exact: true }).count(), text).toBeGreaterThan(0);
    }
    for (const symbol of ['BTCUSDT', 'ETHUSDT', 'XAUUSD', 'XAGUSD', 'USOUSD']) {
      expect(await page.locator('.perf-symbols').getByText(symbol).count(), symbol).toBe(1);
    }
    await page.getByRole('button', { name: '开始监控' }).click();
    await page.getByText('监控中，每 3 秒报告一次').waitFor({ timeout: 15_000 });
  });

  it('draws its line, candlestick and volume charts', async () => {
    const lines = page.getByTestId('perf-chart-line');
    await expect.poll(() => lines.count()).toBe(4);
    for (const chart of [
      lines.first(),
      lines.nth(3),
      page.getByTestId('perf-chart-candles'),
      page.getByTestId('perf-chart-volume'),
    ]) {
      const drawn = await waitUntil(
        () => drawnPixels(chart),
        (n) => n > 200,
        30_000,
      );
      expect(drawn).toBeGreaterThan(200);
    }
  });

  it('a preset changes the delays the pipeline applies', async () => {
    const applied = page.getByTestId('applied-settings');
    expect(await applied.textContent()).toBe('100/500/1000');
    await page.getByText('高性能', { exact: true }).click();
    expect(
      await waitUntil(
        () => applied.textContent(),
        (t) => t === '50/200/2000',
      ),
    ).toBe('50/200/2000');
    await page.getByText('低性能', { exact: true }).click();
    expect(
      await waitUntil(
        () => applied.textContent(),
        (t) => t === '200/1000/500',
      ),
    ).toBe('200/1000/500');
    await page.getByText('平衡', { exact: true }).click();
    expect(
      await waitUntil(
        () => applied.textContent(),
        (t) => t === '100/500/1000',
      ),
    ).toBe('100/500/1000');
  });

  it('the embedded chart pages receive PRICE_UPDATE', async () => {
    for (const [name, symbol] of [
      ['BTCUSDT 嵌入图表', 'BTCUSDT'],
      ['ETHUSDT 嵌入图表', 'ETHUSDT'],
    ] as const) {
      const frame = page.frameLocator(`iframe[title="${name}"]`);
      const chart = frame.locator('[data-chart-id="chart-page"]');
      // the frame draws its own chart and shows the last PRICE_UPDATE it got (legend badge)
      await frame
        .locator('[data-testid=chart-canvas][data-phase=ready]')
        .waitFor({ timeout: 60_000 });
      const first = await waitUntil(
        () => chart.getAttribute('data-price-update'),
        (p) => p !== null && Number(p) > 0,
        30_000,
      );
      expect(Number(first)).toBeGreaterThan(0);
      const next = await waitUntil(
        () => chart.getAttribute('data-price-update'),
        (p) => p !== first,
        30_000,
      );
      expect(next).not.toBe(first);
      expect(await chart.getAttribute('data-client-id')).toMatch(/^perf-\d:chart-page$/);
      expect(await frame.getByTestId('chart-canvas').getAttribute('data-symbol')).toBe(symbol);
    }
    const sent = await waitUntil(
      () => page.getByText(/已发送 PRICE_UPDATE：\d+/).textContent(),
      (t) => t !== null && Number(/(\d+)$/.exec(t)?.[1] ?? 0) > 0,
    );
    expect(Number(/(\d+)$/.exec(sent ?? '')?.[1] ?? 0)).toBeGreaterThan(0);
  });

  it('the monitoring panel reports every 5 s (the page every 3 s)', async () => {
    await page.getByRole('button', { name: /打开监控面板/ }).click();
    const panel = page.getByRole('region', { name: '性能监控面板' });
    await panel.waitFor();
    await panel.getByText('监控中，每 5 秒报告一次').waitFor({ timeout: 15_000 });
    for (const mode of ['light', 'dark'] as const) {
      await setTheme(page, mode);
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await panel.scrollIntoViewIfNeeded();
        await page.screenshot({
          path: `${SCREENSHOT_DIR}/performance-panel-${width}-${mode}.png`,
        });
      }
    }
    await setTheme(page, 'light');
    await page.setViewportSize({ width: 1440, height: 900 });
    await panel.getByRole('button', { name: '关闭监控面板' }).click();
    await panel.waitFor({ state: 'detached' });
  });

  it('screenshots at 1440, 1024 and 390 wide, light and dark', async () => {
    for (const mode of ['light', 'dark'] as const) {
      await setTheme(page, mode);
      for (const width of [1440, 1024, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.waitForFunction(
          () =>
            new Promise((resolve) =>
              requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))),
            ),
        );
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `no horizontal scrolling at ${width}`).toBeLessThanOrEqual(0);
        await screenshot(page, `performance-${width}-${mode}`);
      }
    }
    await setTheme(page, 'light');
    await page.setViewportSize({ width: 1440, height: 900 });
  });
});
