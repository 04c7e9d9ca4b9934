import { readFileSync } from 'node:fs';
import { parseAst } from 'rolldown/parseAst';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:8080';

/** The names a module exports (`export const|function|class X`, `export { a as X }`). */
function exportNames(source: string): string[] {
  const names = [...source.matchAll(/^export (?:const|let|function|class) (\w+)/gm)].map(
    (m) => m[1]!,
  );
  for (const [, list] of source.matchAll(/^export \{([^}]*)\};?$/gm)) {
    for (const item of list!.split(',')) {
      const name = item
        .trim()
        .split(/\s+as\s+/)
        .pop();
      if (name) names.push(name);
    }
  }
  return [...new Set(names)];
}

/**
 * zod's classic schemas carry a toJSONSchema method, so each of them refers to the whole
 * JSON Schema generator (about a fifth of zod) and it came with every schema into the first
 * load. The web app never makes JSON Schemas: in its build the generator's two modules are
 * functions that say so when called; only the checks' summary (`aggregateChecks`, behind a
 * schema's minLength, maxLength, format...) stays the real one.
 */
function zodWithoutJsonSchema(): Plugin {
  const GENERATOR = /\/zod\/v4\/core\/(json-schema-processors|to-json-schema)\.js$/;
  return {
    name: 'zod-without-json-schema',
    apply: 'build',
    enforce: 'pre',
    load(id) {
      if (id.endsWith('?real')) return readFileSync(id.slice(0, -'?real'.length), 'utf8');
      if (!GENERATOR.test(id)) return null;
      const kept = id.endsWith('json-schema-processors.js') ? ['aggregateChecks'] : [];
      const lines = [
        "const unavailable = () => { throw new Error('The web app makes no JSON Schemas'); };",
        'const method = () => unavailable;',
        ...kept.map((name) => `export { ${name} } from ${JSON.stringify(`${id}?real`)};`),
      ];
      for (const name of exportNames(readFileSync(id, 'utf8'))) {
        if (kept.includes(name)) continue;
        if (name === 'allProcessors') lines.push('export const allProcessors = {};');
        else if (/^create\w*Method$/.test(name)) lines.push(`export const ${name} = method;`);
        else lines.push(`export const ${name} = unavailable;`);
      }
      return lines.join('\n');
    },
  };
}

/**
 * The domain package's modules declare schemas, tables and rules at their top level, and a
 * bundler keeps a declaration whose value comes from a call (`z.object(...).extend(...)`)
 * even where nothing uses it: so every schema of a module came with the one the first load
 * needs. Their top-level values have no side effects: in the web build each value made by a
 * call, `new`, an object or an array literal is wrapped in an arrow function called at once
 * and marked pure, which the bundler drops when the declaration is unused.
 */
function pureDomainDeclarations(): Plugin {
  const DOMAIN = /\/packages\/domain\/src\/.*\.ts$/;
  const WRAPPED = new Set([
    'CallExpression',
    'NewExpression',
    'ObjectExpression',
    'ArrayExpression',
  ]);
  return {
    name: 'pure-domain-declarations',
    apply: 'build',
    transform(code, id) {
      if (!DOMAIN.test(id)) return null;
      const edits: { at: number; text: string }[] = [];
      for (const statement of parseAst(code, { lang: 'ts' }, id).body) {
        const declaration =
          statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
        if (declaration?.type !== 'VariableDeclaration') continue;
        for (const { init } of declaration.declarations) {
          if (!init || !WRAPPED.has(init.type)) continue;
          edits.push({ at: init.start, text: '/* @__PURE__ */ (() => (' });
          edits.push({ at: init.end, text: '))()' });
        }
      }
      let out = code;
      for (const { at, text } of edits.sort((a, b) => b.at - a.at)) {
        out = out.slice(0, at) + text + out.slice(at);
      }
      return { code: out, map: null };
    },
  };
}

/**
 * antd's ConfigProvider imports the Tooltip's UniqueProvider (one shared popup for all
 * tooltips, used only with `tooltip={{ unique: true }}`, which the app never sets), and with
 * it the whole popup library (@rc-component/trigger, its portal and resize observer): about
 * 9 KB in the first load that no first screen draws. In the build the ConfigProvider gets it
 * on use instead (React.lazy of the real module); Tooltip, Dropdown and Select still import
 * the real one and the popup library with their own chunks.
 */
function antdUniqueTooltipOnUse(): Plugin {
  const ON_USE = '\0antd-unique-provider-on-use:';
  return {
    name: 'antd-unique-tooltip-on-use',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (source !== '../tooltip/UniqueProvider') return null;
      if (!importer || !/\/antd\/es\/config-provider\/index\.js$/.test(importer)) return null;
      const real = await this.resolve(source, importer, { skipSelf: true });
      return real ? ON_USE + real.id : null;
    },
    load(id) {
      if (!id.startsWith(ON_USE)) return null;
      const real = JSON.stringify(id.slice(ON_USE.length));
      return [
        "import { createElement, lazy, Suspense } from 'react';",
        `const Real = lazy(() => import(${real}));`,
        'export default function UniqueProvider({ children }) {',
        '  return createElement(Suspense, { fallback: null }, createElement(Real, null, children));',
        '}',
      ].join('\n');
    },
  };
}

export default defineConfig({
  plugins: [react(), zodWithoutJsonSchema(), pureDomainDeclarations(), antdUniqueTooltipOnUse()],
  server: {
    proxy: {
      '/user': apiTarget,
      '/trading': apiTarget,
      '/api': apiTarget,
      '/connection': { target: apiTarget, ws: true },
      '/ws': { target: apiTarget, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 4000,
    rolldownOptions: {
      output: {
        // What the entry imports statically (React, antd's core, the router, the live
        // client, zod, the first screen's texts...) is one chunk. The bundler cut it into
        // about 40 files by which lazy chunks also use each part, yet every page loads all of
        // them at once: in one file the first load is about 18 KB smaller (brotli compresses
        // across the modules, no file repeats the imports and exports of the others).
        codeSplitting: {
          groups: [{ name: 'first-load', tags: ['$initial'] }],
        },
      },
      treeshake: {
        // These packages declare no `sideEffects`, so a bundler keeps all of a module it
        // imports: antd's Tooltip (every toolbar) reaches rc-form's index through the form's
        // context and brought the whole form library and its validator into the first load.
        // Their modules only define things; what is not used is left out.
        // A web feature's public face (features/<name>/index.ts, lazy.ts) only re-exports:
        // importing one thing from it brings that thing, not every module the face names
        // (the first load would take the whole feature otherwise).
        moduleSideEffects: (id: string) =>
          !/node_modules\/@rc-component\/(form|async-validator)\//.test(id) &&
          !/packages\/domain\/src\//.test(id) &&
          !/apps\/web\/src\/features\/[^/]+\/(index|lazy)\.ts$/.test(id),
        // No `manualPureFunctions` here: the names it lists are pure in every module, and
        // minified libraries reuse short names (lightweight-charts' `z` clears a canvas; with
        // `z` listed its calls were dropped and every frame was drawn over the last one).
      },
    },
  },
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    // antd renders large trees and jsdom is slow at them: the 50-row table pages take ~10 s
    // on an idle 2-core machine and twice that when it is busy. A deadline, not a measure.
    testTimeout: 60_000,
  },
});
