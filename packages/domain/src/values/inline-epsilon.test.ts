import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * Float tolerances live in this folder (`tolerance.ts`) and nowhere else: an epsilon written
 * inline (`x < 1e-9`, `Math.abs(a - b) < Number.EPSILON`, `0.0000001`) is a second,
 * unnamed idea of "close enough" that drifts from the one the rules use. The product's
 * sources (the apps' and the domain's, tests aside) take theirs from `TOLERANCE` (or
 * `SERIES`) by name.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../../..');
const ROOTS = [
  ...readdirSync(path.join(root, 'apps'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join('apps', entry.name, 'src')),
  path.join('packages', 'domain', 'src'),
];
/**
 * A short exponent literal below 1 (1e-9, 2.5E-7; not a long coefficient such as
 * 7.784894002430293e-3), Number.EPSILON, or a decimal with six or more zeros (0.0000001).
 */
const EPSILON = /(?<![\w.])\d(\.\d{1,2})?e-\d+\b|\bNumber\.EPSILON\b|(?<![\w.])0\.0{6,}\d/gi;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      return entry.name === 'node_modules' || file === here ? [] : sources(file);
    }
    const code = /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts');
    return code && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** The source without its comments (a comment may speak of 1e-13 precision). */
function withoutComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** `name:line: text` of every inline epsilon in `text`. */
function inlineEpsilons(name: string, text: string): string[] {
  return withoutComments(text)
    .split('\n')
    .flatMap((line, index) =>
      line.match(EPSILON) ? [`${name}:${index + 1}: ${line.trim()}`] : [],
    );
}

describe('float tolerances are named in the values module', () => {
  it('finds what it looks for', () => {
    const code = [
      'if (Math.abs(a - b) < 1e-9) return;',
      'const close = d <= Number.EPSILON;',
      'return x > 0.0000001;',
      '// a comment may say 1e-13',
      'const tick = 0.00001; const big = 1e9; const id = a1e-3; const c = 7.784894002430293e-3;',
    ].join('\n');
    expect(inlineEpsilons('x.ts', code).map((found) => found.split(': ')[0])).toEqual([
      'x.ts:1',
      'x.ts:2',
      'x.ts:3',
    ]);
  });

  it.each(ROOTS)('%s writes no epsilon inline', (dir) => {
    const found = sources(path.join(root, dir)).flatMap((file) =>
      inlineEpsilons(path.relative(root, file), readFileSync(file, 'utf8')),
    );
    expect(found).toEqual([]);
  });
});
