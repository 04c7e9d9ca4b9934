import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
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
      treeshake: {
        // These packages declare no `sideEffects`, so a bundler keeps all of a module it
        // imports: antd's Tooltip (every toolbar) reaches rc-form's index through the form's
        // context and brought the whole form library and its validator into the first load.
        // Their modules only define things; what is not used is left out.
        moduleSideEffects: (id: string) =>
          !/node_modules\/@rc-component\/(form|async-validator)\//.test(id),
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
