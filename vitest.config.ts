import { defineConfig } from 'vitest/config';

// One test run for the whole workspace: unit tests beside the code, API tests over real HTTP
// against SQLite and PostgreSQL, and the browser end-to-end suite in e2e/.
export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/*/src/**/*.test.ts',
      'simulators/src/**/*.test.ts',
      'e2e/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    env: { TZ: 'America/Mexico_City' },
  },
});
