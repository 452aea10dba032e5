// First: no eval under the Content-Security-Policy (lib/zod-sin-eval.ts).
import './lib/zod-sin-eval.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { vigilarPaginaRestaurada } from './lib/sesion.ts';
import { vigilarControlesAntd } from './lib/accesibilidad-antd.ts';
// Ant Design's component styles, prebuilt (the theme's zeroRuntime, app/app.tsx); ours after them.
import 'antd/dist/antd.css';
import './styles.css';

vigilarPaginaRestaurada();
vigilarControlesAntd();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
