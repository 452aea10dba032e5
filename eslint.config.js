import fs from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const ICONOS = {
  name: '@ant-design/icons',
  message: 'Importe los íconos de components/iconos.tsx',
};
const OTRA_APP = 'Capas: una app no importa otra (issue 44); lo compartido va en packages/';
const OTRAS_APPS_WEB = {
  group: ['@pregon/api', '@pregon/api/*', '@pregon/pbx', '@pregon/pbx/*'],
  message: OTRA_APP,
};
/** Tests and their helpers (each workspace's testing/ folder, beside its src/): not layers. */
const PRUEBAS = ['**/*.test.ts', '**/testing/**'];
/** The dispatcher: the api's services reach its engine only through the package's public entry
 * (@pregon/despacho), never its modules nor the api's binding (dispatcher/index.ts, which imports
 * them); routes not at all. */
const DESPACHADOR = ['../dispatcher/*', '@pregon/despacho/*'];
/** The web app's features (apps/web/src/features/*). */
const CARACTERISTICAS_WEB = fs
  .readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
/** The web app's shared folders: any feature may import them, they import no feature. */
const COMPARTIDO_WEB = ['components', 'ejercicio', 'hooks', 'lib'];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'artifacts/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Icons come from the web app's iconos.tsx, which hides them from screen readers (their own
    // accessible names are English).
    files: ['apps/web/src/**'],
    ignores: ['apps/web/src/components/iconos.tsx'],
    rules: { 'no-restricted-imports': ['error', { paths: [ICONOS], patterns: [OTRAS_APPS_WEB] }] },
  },
  // Layers (issue 44): who may import whom. Tests and test helpers are not layers. Each `!` entry
  // is debt the issue names (a module in the wrong home), listed so that nothing new joins it;
  // remove the line when the module moves. scripts/capas.test.ts checks that a violation fails.
  {
    files: ['apps/api/src/routes/**/*.ts'],
    ignores: PRUEBAS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '../repositories/*',
                '../db/*',
                '@pregon/db',
                '@pregon/db/*',
                ...DESPACHADOR,
                '@pregon/despacho',
              ],
              message:
                'Capas: una ruta llama a servicios, no a repositorios, a la base ni al despachador (issue 44)',
            },
            {
              group: ['@pregon/pbx', '@pregon/pbx/*', '@pregon/web', '@pregon/web/*'],
              message: OTRA_APP,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/api/src/services/**/*.ts'],
    ignores: PRUEBAS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../routes/*'],
              message: 'Capas: un servicio no importa rutas (issue 44)',
            },
            {
              group: DESPACHADOR,
              message:
                'Capas: un servicio no usa las piezas internas del despachador (issue 44); use su entrada pública, @pregon/despacho',
            },
            {
              group: ['@pregon/pbx', '@pregon/pbx/*', '@pregon/web', '@pregon/web/*'],
              message: OTRA_APP,
            },
          ],
        },
      ],
    },
  },
  {
    // The rest of the api (config, start-up, vivo, programador…) uses the dispatcher's engine
    // through its package's entry or the api's binding (dispatcher/index.ts), not its modules.
    files: ['apps/api/src/**/*.ts'],
    ignores: [...PRUEBAS, 'apps/api/src/routes/**', 'apps/api/src/services/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@pregon/despacho/*'],
              message:
                'Capas: la api usa el despachador por la entrada de su paquete, @pregon/despacho (issue 44)',
            },
            {
              group: ['@pregon/pbx', '@pregon/pbx/*', '@pregon/web', '@pregon/web/*'],
              message: OTRA_APP,
            },
          ],
        },
      ],
    },
  },
  {
    // A package serves the apps and never imports one (issue 44).
    files: ['packages/*/src/**/*.ts'],
    ignores: PRUEBAS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@pregon/api',
                '@pregon/api/*',
                '@pregon/pbx',
                '@pregon/pbx/*',
                '@pregon/web',
                '@pregon/web/*',
                '**/apps/**',
              ],
              message: 'Capas: un paquete no importa una app (issue 44)',
            },
          ],
        },
      ],
    },
  },
  // The dispatcher's engine (issue 44.1; after the packages' rule, which it replaces here): the
  // contract, the AMI client, the database and its own modules; what it needs of the api comes in
  // as an Anfitrion (anfitrion.ts). Its src/ holds the engine and, one folder per protocol, the
  // channels (src/canales/<protocolo>/): an import may climb to src/, never out of it.
  ...[
    ['packages/despacho/src/*.ts', '\\.\\./'],
    ['packages/despacho/src/canales/*.ts', '(\\.\\./){2}'],
    ['packages/despacho/src/canales/*/*.ts', '(\\.\\./){3}'],
  ].map(([archivos, fuera]) => ({
    files: [archivos],
    ignores: PRUEBAS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@pregon/api', '@pregon/api/*', '**/apps/**'],
              message:
                'Capas: el despachador no importa la api (rutas, servicios, repositorios, http, vivo) (issue 44); lo que necesita de ella le llega como Anfitrion',
            },
            {
              regex: `^(@pregon/(?!(contract|ami|db|api)(/|$))|${fuera}(?!.*apps/))`,
              message:
                'Capas: el despachador importa solo @pregon/contract, @pregon/ami, @pregon/db y sus propios módulos (issue 44)',
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['apps/pbx/src/**/*.ts'],
    ignores: PRUEBAS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // What the agent shares with the api is the server kit, @pregon/servidor.
              group: ['@pregon/api', '@pregon/api/*', '@pregon/web', '@pregon/web/*'],
              message: OTRA_APP,
            },
          ],
        },
      ],
    },
  },
  ...CARACTERISTICAS_WEB.map((f) => ({
    files: [`apps/web/src/features/${f}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [ICONOS],
          patterns: [
            OTRAS_APPS_WEB,
            {
              group: CARACTERISTICAS_WEB.filter((g) => g !== f).flatMap((g) => [
                `../../${g}/*`,
                `../../${g}/**`,
                `**/features/${g}/**`,
              ]),
              message:
                'Capas: una característica de la web no importa otra (issue 44); lo compartido va en components/ o lib/',
            },
          ],
        },
      ],
    },
  })),
  {
    files: COMPARTIDO_WEB.map((c) => `apps/web/src/${c}/**`),
    ignores: ['apps/web/src/components/iconos.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [ICONOS],
          patterns: [
            OTRAS_APPS_WEB,
            {
              group: ['**/features/*', '**/features/**'],
              message:
                'Capas: lo compartido de la web (components/, ejercicio/, hooks/, lib/) no importa una característica (issue 44)',
            },
          ],
        },
      ],
    },
  },
);
