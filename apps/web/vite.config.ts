import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { filtrarEstilosAntd } from './estilos-antd.ts';

// The web app is served by the api on the same origin (WEB_DIST), so relative API paths work;
// in development, vite proxies API paths to the api on PREGON_API (default http://127.0.0.1:8080).
const api = process.env.PREGON_API ?? 'http://127.0.0.1:8080';
const rutasApi = [
  '/auth',
  '/ejercicio',
  '/ejercicios',
  '/quiz',
  '/reportes',
  '/telefono',
  '/telefonos',
  '/csv',
  '/usuarios',
  '/equipos',
  '/paises',
  '/estados',
  '/categorias',
  '/call',
  '/config/',
  '/health',
  '/docs',
];

/** Issue 45 (first screen): Ant Design's prebuilt styles without the unused components' rules. */
const estilosAntd = {
  name: 'pregon-estilos-antd',
  enforce: 'pre' as const,
  transform(codigo: string, id: string) {
    if (!/[\\/]antd[\\/]dist[\\/]antd\.css$/.test(id.split('?')[0]!)) return null;
    return { code: filtrarEstilosAntd(codigo), map: null };
  },
};

export default defineConfig({
  plugins: [estilosAntd, react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      treeshake: {
        // Calls without side effects, so rollup drops those whose result nothing uses:
        // components/iconos.tsx wraps each icon with `decorativo(Icon)` at import (all 46 icons
        // and their SVG data were kept wherever one was used), and the contract declares every
        // endpoint and schema at import (`endpoint({...})`, `z.object(...)` and their chains):
        // a screen that imports one endpoint of a module no longer builds the module's other
        // schemas when it loads. `z.config` (the Spanish messages) is not listed: it stays.
        manualPureFunctions: [
          'decorativo',
          'endpoint',
          ...[
            'string',
            'number',
            'object',
            'literal',
            'array',
            'enum',
            'boolean',
            'preprocess',
            'record',
            'email',
            'union',
            'discriminatedUnion',
          ].map((f) => `z.${f}`),
        ],
      },
      output: {
        manualChunks(id) {
          if (id.includes('node_modules/exceljs')) return 'exceljs';
          if (/node_modules\/(react|react-dom|scheduler|react-router)\//.test(id)) return 'react';
          return undefined;
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(rutasApi.map((r) => [r, { target: api, changeOrigin: false }])),
  },
});
