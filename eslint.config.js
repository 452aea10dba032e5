import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'artifacts/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Icons come from the web app's iconos.tsx, which hides them from screen readers (their own
    // accessible names are English).
    files: ['apps/web/src/**'],
    ignores: ['apps/web/src/components/iconos.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: '@ant-design/icons', message: 'Importe los íconos de components/iconos.tsx' }] },
      ],
    },
  },
);
