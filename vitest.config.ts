import { defineConfig } from 'vitest/config';

// One test run for the whole workspace: unit tests beside the code, API tests over real HTTP
// against SQLite and PostgreSQL, and the browser end-to-end suite in e2e/.
//
// Three projects. Most files spend their time waiting on sockets, receipts, call durations and
// outages they stage, not on the CPU, so 'paralelo' runs three files at a time (scripts/pruebas.mjs
// runs it with --maxWorkers=3; every test has its own ports, database and DATA_DIR). The
// browser suite ('navegador': CPU slowed on purpose, screens timed) and the crash tests
// ('caidas': SIGKILLs at moments chosen by the clock) each run one file at a time, after the
// first: scripts/pruebas.mjs runs the two side by side.
const NAVEGADOR = ['e2e/**/*.test.ts'];
const CAIDAS = ['apps/api/src/**/fallos*.test.ts'];
// A screen's change waits as long as a locator does (CI's load stretched a sign-out past
// expect.poll's default second); a wrong value still fails, only later.
const ESPERA_POLL = { poll: { timeout: 10_000 } };

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Test gateways listen on loopback at random ports: the device destination rule (issue 49.3,
    // EQUIPOS_DESTINOS_PERMITIDOS) allows loopback here; tests of the rule narrow it.
    env: { TZ: 'America/Mexico_City', EQUIPOS_DESTINOS_PERMITIDOS: '127.0.0.0/8,::1' },
    projects: [
      {
        extends: true,
        test: {
          name: 'paralelo',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/*/src/**/*.test.ts',
            'simulators/src/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          exclude: ['**/node_modules/**', '**/dist/**', ...NAVEGADOR, ...CAIDAS],
        },
      },
      { extends: true, test: { name: 'navegador', include: NAVEGADOR, expect: ESPERA_POLL } },
      { extends: true, test: { name: 'caidas', include: CAIDAS, expect: ESPERA_POLL } },
    ],
  },
});
