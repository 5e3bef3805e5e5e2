import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
    globalSetup: [fileURLToPath(new URL('./packages/testing/src/global-setup.ts', import.meta.url))],
    reporters: ['default', fileURLToPath(new URL('./test/support/summary-reporter.ts', import.meta.url))],
    pool: 'forks',
    // Two cores: end-to-end files start real processes, so run a few files at a time.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
  },
});
