import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_EMAIL, expectPath, loginThroughPage, stored } from './support/auth.ts';
import { launchBrowser, newContext, screenshot } from './support/browser.ts';

const baseURL = inject('baseURL');
const password = inject('demoPassword');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

async function openPage(viewport: 'desktop' | 'phone'): Promise<Page> {
  const context = await newContext(browser, viewport, baseURL);
  return context.newPage();
}

describe('login, profile, account switch and logout on a desktop', () => {
  let page: Page;
  beforeAll(async () => {
    page = await openPage('desktop');
  });
  afterAll(async () => {
    await page.context().close();
  });

  it('sends a visitor to the login page', async () => {
    await page.goto('/');
    await page.getByRole('heading', { name: 'Login' }).waitFor();
    await expectPath(page, '/login');
    await screenshot(page, 'desktop-login');
  });

  it('shows the validation messages in the spec order', async () => {
    const submit = page.getByRole('button', { name: 'Submit' });
    await submit.click();
    await page.getByText('Please enter your email').first().waitFor();
    await page.getByLabel('Email').fill('trader');
    await submit.click();
    await page.getByText('Please enter a valid email format').first().waitFor();
    await page.getByLabel('Email').fill(DEMO_EMAIL);
    await submit.click();
    await page.getByText('Please enter your password').first().waitFor();
    await screenshot(page, 'desktop-login-validation');
  });

  it('refuses a wrong password', async () => {
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByLabel('Password').press('Enter');
    await page.getByText('Incorrect username or password').first().waitFor();
    await expectPath(page, '/login');
    expect(await stored(page, 'userId')).toBeNull();
  });

  it('logs in and opens the workspace with the first account current', async () => {
    await page.getByLabel('Password').fill(password);
    await page.getByLabel('Password').press('Enter');
    await page.getByText('Login successful').first().waitFor();
    await expectPath(page, '/desktop');
    await page.getByRole('button', { name: 'Account: Demo Standard' }).waitFor();
    expect(await stored(page, 'userName')).toBe(DEMO_EMAIL);
    expect(JSON.parse((await stored(page, 'currentTrader')) ?? '{}')).toMatchObject({
      name: 'Demo Standard',
    });
    await page.getByRole('navigation', { name: 'Side panel buttons' }).waitFor();
    await page.getByRole('tab', { name: 'Positions' }).waitFor();
    await screenshot(page, 'desktop-workspace');
  });

  it('shows the profile with the user values and the trading accounts', async () => {
    await page.getByRole('button', { name: /^Account:/ }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await expectPath(page, '/profile');
    const info = page.getByRole('tabpanel');
    for (const text of ['Demo Trader', DEMO_EMAIL, 'Approved', 'United States']) {
      await info.getByText(text, { exact: true }).first().waitFor();
    }
    await screenshot(page, 'desktop-profile');
    await page.getByRole('tab', { name: 'Trading Accounts' }).click();
    const rows = page.getByRole('row');
    await page.getByRole('cell', { name: /Demo VIP/ }).waitFor();
    await expect.poll(() => rows.count()).toBe(4); // header + three accounts
    await expect
      .poll(() =>
        page
          .getByRole('row', { name: /Demo Standard/ })
          .getByText('Current')
          .count(),
      )
      .toBe(1);
    await page.getByText('Level 3').waitFor();
    await screenshot(page, 'desktop-profile-accounts');
  });

  it('switches the trading account', async () => {
    await page.getByRole('button', { name: /^Account:/ }).click();
    await page.getByRole('menuitem', { name: 'Trading Accounts' }).hover();
    await page.getByRole('menuitem', { name: /Demo Professional/ }).click();
    await page.getByText('Trading account switched').first().waitFor();
    await expect
      .poll(() =>
        page
          .getByRole('row', { name: /Demo Professional/ })
          .getByText('Current')
          .count(),
      )
      .toBe(1);
    expect(JSON.parse((await stored(page, 'currentTrader')) ?? '{}')).toMatchObject({
      name: 'Demo Professional',
    });
    await page.getByRole('button', { name: 'Return to Main Page' }).click();
    await page.getByRole('button', { name: 'Account: Demo Professional' }).waitFor();
    await screenshot(page, 'desktop-account-switched');
  });

  it('logs out to the login page and forgets the user', async () => {
    await page.getByRole('button', { name: /^Account:/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expectPath(page, '/login');
    expect(await stored(page, 'userId')).toBeNull();
    expect(await stored(page, 'currentTrader')).toBeNull();
    await page.goto('/profile');
    await expectPath(page, '/login');
  });
});

describe('the same journey at a phone width', () => {
  let page: Page;
  beforeAll(async () => {
    page = await openPage('phone');
  });
  afterAll(async () => {
    await page.context().close();
  });

  it('logs in to the phone workspace with the bottom bar', async () => {
    await page.goto('/');
    await page.getByRole('heading', { name: 'Login' }).waitFor();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Please enter your email').first().waitFor();
    await screenshot(page, 'phone-login-validation');
    await loginThroughPage(page, password);
    await expectPath(page, '/phone');
    const bar = page.getByRole('navigation', { name: 'Main navigation' });
    await bar.getByRole('button', { name: 'Trading' }).waitFor();
    await bar.getByRole('button', { name: 'My' }).waitFor();
    await page.getByRole('tab', { name: 'Chart' }).waitFor();
    const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(pageWidth).toBeLessThanOrEqual(390);
    await screenshot(page, 'phone-workspace');
  });

  it('switches account and theme from My, then logs out', async () => {
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('button', { name: 'My' })
      .click();
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Theme' }).waitFor();
    await page.getByRole('button', { name: /Demo VIP/ }).click();
    await page.getByText('Trading account switched').first().waitFor();
    expect(JSON.parse((await stored(page, 'currentTrader')) ?? '{}')).toMatchObject({
      name: 'Demo VIP',
    });
    await page.getByText('Dark', { exact: true }).click();
    await expect.poll(() => stored(page, 'theme')).toBe('dark');
    await screenshot(page, 'phone-my-dark');
    await page.getByRole('button', { name: 'Logout' }).click();
    await expectPath(page, '/login');
    expect(await stored(page, 'userId')).toBeNull();
  });
});

/** The colour painted at a point of the page: the first opaque background under it. */
function paintedAt(page: Page, x: number, y: number): Promise<number[]> {
  return page.evaluate(
    ([px, py]) => {
      const rgb = (text: string) => (text.match(/[\d.]+/g) ?? []).map(Number);
      for (let el = document.elementFromPoint(px!, py!); el; el = el.parentElement) {
        const [r, g, b, a = 1] = rgb(getComputedStyle(el).backgroundColor);
        if (a > 0.5) return [r!, g!, b!];
      }
      const [r, g, b, a = 1] = rgb(getComputedStyle(document.documentElement).backgroundColor);
      return a > 0.5 ? [r!, g!, b!] : [255, 255, 255];
    },
    [x, y],
  );
}

/** Relative luminance of an sRGB colour, 0 (black) to 1 (white). */
function luminance([r, g, b]: number[]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
}

/** The colour of the theme button's icon. */
async function themeIconColour(page: Page, name: string): Promise<number[]> {
  const button = page.getByRole('button', { name });
  await button.waitFor();
  return button.evaluate((el) =>
    (getComputedStyle(el).color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number),
  );
}

describe('the app theme wins over the system preference', () => {
  const cases = [
    { system: 'dark', app: 'light', toggle: 'Switch to dark theme' },
    { system: 'light', app: 'dark', toggle: 'Switch to light theme' },
  ] as const;
  for (const { system, app, toggle } of cases) {
    it(`paints login and profile ${app} with a ${system} system preference`, async () => {
      const page = await openPage('desktop');
      await page.emulateMedia({ colorScheme: system });
      await page.goto('/login');
      await page.evaluate((mode) => window.localStorage.setItem('theme', mode), app);
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 844 });
        await page.goto('/login');
        await page.getByRole('heading', { name: 'Login' }).waitFor();
        await page.waitForFunction((mode) => document.documentElement.dataset.theme === mode, app);
        // the page around the card, its corner and its middle bottom, takes the app's theme
        for (const [x, y] of [
          [4, 4],
          [width / 2, 830],
        ] as const) {
          const bg = luminance(await paintedAt(page, x, y));
          if (app === 'light') expect(bg, `login at ${width}, (${x}, ${y})`).toBeGreaterThan(0.8);
          else expect(bg, `login at ${width}, (${x}, ${y})`).toBeLessThan(0.1);
        }
        // the theme button stands out from the page behind it
        const icon = luminance(await themeIconColour(page, toggle));
        const behind = luminance(await paintedAt(page, width - 8, 8));
        expect(Math.abs(icon - behind), `theme button at ${width}`).toBeGreaterThan(0.4);
        await screenshot(page, `login-${app}-on-${system}-system-${width}`);
      }
      await page.setViewportSize({ width: 1440, height: 900 });
      await loginThroughPage(page, password);
      await page.goto('/profile');
      await page.getByRole('button', { name: 'Return to Main Page' }).waitFor();
      const bg = luminance(await paintedAt(page, 4, 880));
      if (app === 'light') expect(bg, 'profile').toBeGreaterThan(0.8);
      else expect(bg, 'profile').toBeLessThan(0.1);
      await screenshot(page, `profile-${app}-on-${system}-system`);
      await page.context().close();
    });
  }
});
