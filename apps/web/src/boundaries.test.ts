import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The lint of `npm test` (eslint.config.js, apps/web/boundaries.js) keeps each web feature's
// inside private: from outside, a feature is imported through its index.ts or lazy.ts only.

const repoRoot = resolve(import.meta.dirname, '../../..');
// the project's own config; the cycle check (slow, and not what is tested here) is left out
const eslint = new ESLint({
  cwd: repoRoot,
  overrideConfig: { rules: { 'import-x/no-cycle': 'off' } },
});
// a module of the chart feature (the file need not exist: lintText lints the given text)
const filePath = resolve(repoRoot, 'apps/web/src/features/chart/boundaryFixture.ts');

async function faceErrors(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages
    .filter((m) => m.ruleId === 'import-x/no-restricted-paths')
    .map((m) => m.message);
}

describe('a feature is imported through its public face', () => {
  it.each([
    ["import { openEditOrder } from '../trading/dialogs';\nexport const x = openEditOrder;\n"],
    ["export const load = () => import('../trading/TradingDialogs');\n"],
    ["export { useAuthStore } from '../auth/store';\n"],
  ])('a deep import into another feature fails the lint: %s', async (code) => {
    expect(await faceErrors(code)).toEqual([
      expect.stringMatching(/through its index\.ts or lazy\.ts, not its inside/),
    ]);
  });

  it.each([
    ["import { openEditOrder } from '../trading';\nexport const x = openEditOrder;\n"],
    ["export { loadTradingDialogs } from '../trading/lazy';\n"],
    ["export { ChartController } from './ChartController';\n"],
  ])('the index, the lazy entry and the own inside pass: %s', async (code) => {
    expect(await faceErrors(code)).toEqual([]);
  });
});
