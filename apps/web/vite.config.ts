import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

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

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      treeshake: {
        // components/iconos.tsx wraps each icon with `decorativo(Icon)` at import: without this,
        // rollup must keep all 46 wrapped icons (and their SVG data) wherever any one is used.
        manualPureFunctions: ['decorativo'],
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
