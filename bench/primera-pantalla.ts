/**
 * First screen: time to interactive of /signin and of / (the exercises list, signed in) in
 * Debian's chromium with the CPU slowed 4× (CDP Emulation.setCPUThrottlingRate) and a cold cache
 * (a fresh user-data-dir, a fresh browser, for every load), beside the same Ant Design screens
 * built minimally with esbuild in the same run (a login form; a layout with its side menu, header
 * and a 20-row table fetched as JSON), served the same way (Fastify, @fastify/static with brotli
 * precompressed). Rounds alternate project/baseline; medians. Target (issue 27.3): ≤ 1.2× each.
 *
 * Time to interactive, as Lighthouse defines it but with the screen's content as the floor: the
 * later of the moment the content is on screen (the sign-in form's button; the table's rows) and
 * the end of the last long task (> 50 ms) before a quiet window of `--quieto` ms (5,000, as
 * Lighthouse) without any. Both are read in the page (PerformanceObserver 'longtask' and a
 * MutationObserver installed before any script), from the navigation's start.
 *
 * Run: npx tsx bench/primera-pantalla.ts [--rondas 5] [--quieto 5000] [--cpu 4] [--perfil DIR]
 *      (builds apps/web first when dist is missing or older than its sources; WEB_DIST=dir
 *      measures another build of the web as it is, e.g. one built with --minify false)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';
import compress from '@fastify/compress';
import { chromium } from 'playwright-core';
import { arg, argNum, bandera, mediana } from './_comun.ts';
import { CLAVE_TOKEN } from '@pregon/contract/constants';
import { levantarApi } from '../apps/api/testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../apps/api/testing/fabrica.ts';
// @ts-expect-error: a plain .mjs script of the web's build, without types
import { precomprimir } from '../apps/web/precomprimir.mjs';

const raiz = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = process.env.WEB_DIST
  ? path.resolve(process.env.WEB_DIST)
  : path.join(raiz, 'apps/web/dist');
const RONDAS = argNum('rondas', 5);
const QUIETO_MS = argNum('quieto', 5000);
const CPU = argNum('cpu', 4);
/** --perfil DIR: after the figures, one more load of each case under the CDP Profiler, written
 * as DIR/<pantalla>-<lado>.cpuprofile (open it in Chrome DevTools' Performance panel). */
const PERFIL = bandera('perfil') ? path.resolve(arg('perfil', '')) : null;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Rows of the project's list (one page of FILAS_POR_PAGINA) and of the baseline's table. */
const FILAS_PROYECTO = 10;
const FILAS_BASE = 20;

const carga = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

// 1. The project's web build, rebuilt when older than the web's or the contract's sources.
function masReciente(dir: string): number {
  let max = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    max = Math.max(max, e.isDirectory() ? masReciente(p) : fs.statSync(p).mtimeMs);
  }
  return max;
}
const indice = path.join(dist, 'index.html');
const fuentes = Math.max(
  masReciente(path.join(raiz, 'apps/web')),
  masReciente(path.join(raiz, 'packages/contract/src')),
);
if (!process.env.WEB_DIST && (!fs.existsSync(indice) || fs.statSync(indice).mtimeMs < fuentes)) {
  console.log('Construyendo apps/web…');
  const r = spawnSync('npm', ['run', 'build', '-w', '@pregon/web'], {
    cwd: raiz,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// 2. The baseline: the same two screens with nothing but react, react-dom, antd and its icons.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-primera-pantalla-'));
const base = path.join(tmp, 'base');
fs.mkdirSync(path.join(base, 'assets'), { recursive: true });
const FUENTES_BASE: Record<string, string> = {
  ingreso: `import { createRoot } from 'react-dom/client';
import { Button, Card, ConfigProvider, Form, Input, Layout, Typography } from 'antd';
import esES from 'antd/locale/es_ES';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
function Ingreso() {
  return (
    <ConfigProvider locale={esES} theme={{ token: { colorPrimary: '#1d4ed8' } }}>
      <Layout style={{ minHeight: '100vh', alignItems: 'center', justifyContent: 'center' }}>
        <Card style={{ width: 400 }}>
          <Typography.Title level={3}>Pregón</Typography.Title>
          <Typography.Title level={4}>Iniciar sesión</Typography.Title>
          <Form layout="vertical" requiredMark={false} size="large" onFinish={() => undefined}>
            <Form.Item label="Usuario" name="usuario" rules={[{ required: true, whitespace: true }]}>
              <Input prefix={<UserOutlined />} autoFocus autoComplete="username" />
            </Form.Item>
            <Form.Item label="Contraseña" name="password" rules={[{ required: true }]}>
              <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block>Ingresar</Button>
          </Form>
        </Card>
      </Layout>
    </ConfigProvider>
  );
}
createRoot(document.getElementById('root')!).render(<Ingreso />);
`,
  lista: `import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Button, Card, ConfigProvider, Dropdown, Input, Layout, Menu, Space, Switch, Table, Tag, Typography } from 'antd';
import esES from 'antd/locale/es_ES';
import { HomeOutlined, LaptopOutlined, MenuOutlined, PhoneOutlined, SettingOutlined } from '@ant-design/icons';
interface Fila { id: number; nombre: string; accion: string; dispositivo: string; tipo: string; completado: boolean }
function Lista() {
  const [filas, setFilas] = useState<Fila[]>([]);
  useEffect(() => { void fetch('/filas.json').then((r) => r.json()).then(setFilas); }, []);
  return (
    <ConfigProvider locale={esES} theme={{ token: { colorPrimary: '#1d4ed8' } }}>
      <Layout style={{ minHeight: '100vh' }}>
        <Layout.Sider collapsible width={220} theme="dark">
          <div style={{ height: 64, color: '#fff', padding: '20px' }}>Pregón</div>
          <Menu theme="dark" mode="inline" selectedKeys={['/']} items={[
            { key: '/', icon: <HomeOutlined />, label: 'Inicio' },
            { key: '/telefonos', icon: <PhoneOutlined />, label: 'Teléfonos' },
            { key: '/equipos', icon: <LaptopOutlined />, label: 'Equipos' },
          ]} />
        </Layout.Sider>
        <Layout>
          <Layout.Header style={{ background: '#fff', display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
            <Button type="text" icon={<MenuOutlined />} aria-label="Menu" />
            <Dropdown menu={{ items: [{ key: 'salir', label: 'Cerrar sesión' }] }} trigger={['click']}>
              <Button icon={<SettingOutlined />}>Configuración</Button>
            </Dropdown>
          </Layout.Header>
          <Layout.Content style={{ padding: 24 }}>
            <Typography.Title level={2}>Ejercicios</Typography.Title>
            <Card>
              <Space style={{ marginBottom: 16 }}>
                <Input.Search placeholder="Buscar..." allowClear />
                <Switch defaultChecked checkedChildren="Activos" unCheckedChildren="Todos" />
              </Space>
              <Table<Fila> rowKey="id" size="middle" dataSource={filas} pagination={false} scroll={{ x: 900 }} columns={[
                { title: 'Nombre', dataIndex: 'nombre', ellipsis: true },
                { title: 'Acción', dataIndex: 'accion', ellipsis: true },
                { title: 'Dispositivo', dataIndex: 'dispositivo', ellipsis: true },
                { title: 'Tipo', dataIndex: 'tipo', width: 130 },
                { title: 'Estatus', key: 'estatus', width: 180, render: (_, f) => <Tag color={f.completado ? 'success' : 'processing'}>{f.completado ? 'Completado' : 'No completo'}</Tag> },
                { title: 'Acciones', key: 'acciones', width: 320, render: () => (
                  <Space size={4} wrap><Button size="small">Reporte 1</Button><Button size="small">Reporte 2</Button><Button size="small" type="primary">Iniciar</Button></Space>
                ) },
              ]} />
            </Card>
          </Layout.Content>
        </Layout>
      </Layout>
    </ConfigProvider>
  );
}
createRoot(document.getElementById('root')!).render(<Lista />);
`,
};
for (const [nombre, fuente] of Object.entries(FUENTES_BASE)) {
  const entrada = path.join(tmp, `${nombre}.tsx`);
  fs.writeFileSync(entrada, fuente);
  await build({
    entryPoints: [entrada],
    outfile: path.join(base, 'assets', `${nombre}.js`),
    bundle: true,
    minify: true,
    format: 'esm',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    nodePaths: [path.join(raiz, 'node_modules')],
    absWorkingDir: raiz,
    logLevel: 'error',
    sourcemap: PERFIL !== null,
  });
  fs.writeFileSync(
    path.join(base, `${nombre}.html`),
    `<!doctype html><html lang="es"><head><meta charset="UTF-8" /><title>Pregón</title>` +
      `<style>html,body,#root{height:100%;margin:0}</style>` +
      `<script type="module" src="/assets/${nombre}.js"></script></head>` +
      `<body><div id="root"></div></body></html>`,
  );
}
precomprimir(base);
const filasBase = Array.from({ length: FILAS_BASE }, (_, i) => ({
  id: i + 1,
  nombre: `Simulacro ${i + 1}`,
  accion: 'Simulacro: esto es una prueba',
  dispositivo: 'SMS Centro',
  tipo: 'SMS',
  completado: i % 3 === 0,
}));
const servidorBase = Fastify();
await servidorBase.register(fastifyStatic, { root: base, preCompressed: true, wildcard: false });
await servidorBase.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
servidorBase.get('/filas.json', async () => filasBase);
const urlBase = await servidorBase.listen({ port: 0, host: '127.0.0.1' });

// 3. The project: the api serving the built web (SQLite), 20 exercises, an administrator's token.
const api = await levantarApi('sqlite', { WEB_DIST: dist, LOG_LEVEL: 'silent' });
const db = api.ctx.db;
const id_equipo = await crearEquipo(db, { protocolo: 'smpp', alias: 'SMS Centro' });
for (let i = 0; i < 20; i++)
  await crearEjercicio(db, { id_equipo, titulo: `Simulacro ${i + 1}`, iniciar: i % 2 === 0 });
const ingreso = await fetch(`${api.url}/auth/signin/`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ usuario: 'admin', password: api.adminPassword }),
});
const { token } = (await ingreso.json()) as { token: string };

// 4. One cold load: a fresh browser and profile, the CPU slowed, until TTI is known.
interface Medida {
  contenido: number;
  tti: number;
  largas: number;
}
/** Installed before any script of the page: records long tasks, and when the screen's content
 * is first on it (a string: tsx's helpers do not exist in the page). */
const sondas = (token: string | null, filas: number) => `
${token ? `localStorage.setItem(${JSON.stringify(CLAVE_TOKEN)}, ${JSON.stringify(token)});` : ''}
window.__largas = [];
window.__listo = null;
new PerformanceObserver((l) => {
  for (const e of l.getEntries()) window.__largas.push(e.startTime + e.duration);
}).observe({ type: 'longtask', buffered: true });
const listo = () => ${
  filas > 0
    ? `document.querySelectorAll('.ant-table-tbody tr.ant-table-row').length >= ${filas}`
    : `document.querySelector('form button[type="submit"]') !== null && document.querySelector('input#usuario') !== null`
};
const mo = new MutationObserver(() => {
  if (window.__listo === null && listo()) {
    window.__listo = performance.now();
    mo.disconnect();
  }
});
mo.observe(document, { childList: true, subtree: true });
`;
/** Read in the page: now, content time, TTI so far and how many long tasks. */
const LECTURA = `(() => {
  const ultima = Math.max(0, ...window.__largas);
  return { ahora: performance.now(), contenido: window.__listo,
    tti: Math.max(window.__listo, ultima), largas: window.__largas.length };
})()`;

/** One cold load of `url`; with `perfil`, first a JSON answer of the same origin (`previa`, so
 * the profiler keeps the same renderer through the navigation), then the load under the
 * profiler, written to `perfil`. */
async function medir(
  url: string,
  filas: number,
  conToken: boolean,
  perfil?: { archivo: string; previa: string },
): Promise<Medida> {
  const dirPerfil = fs.mkdtempSync(path.join(tmp, 'perfil-'));
  const contexto = await chromium.launchPersistentContext(dirPerfil, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1366, height: 768 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const pagina = contexto.pages()[0] ?? (await contexto.newPage());
    if (perfil) await pagina.goto(perfil.previa);
    const cdp = await contexto.newCDPSession(pagina);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
    if (perfil) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    await pagina.addInitScript(sondas(conToken ? token : null, filas));
    await pagina.goto(url, { waitUntil: 'commit' });
    // A function, not a string: playwright evaluates a string predicate with eval(), which the
    // app's Content-Security-Policy (script-src 'self', issue 48.6) refuses.
    await pagina.waitForFunction(
      () => (globalThis as { __listo?: number | null }).__listo !== null,
      null,
      {
        timeout: 60_000,
        polling: 100,
      },
    );
    for (;;) {
      const m = (await pagina.evaluate(LECTURA)) as Medida & { ahora: number };
      if (m.ahora - m.tti >= QUIETO_MS) {
        if (perfil) {
          const { profile } = await cdp.send('Profiler.stop');
          fs.writeFileSync(perfil.archivo, JSON.stringify(profile));
        }
        return m;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await contexto.close();
    fs.rmSync(dirPerfil, { recursive: true, force: true });
  }
}

type Lado = 'proyecto' | 'base';
type Pantalla = 'signin' | 'lista';
type Caso = (perfil?: { archivo: string; previa: string }) => Promise<Medida>;
const CASOS: Record<Pantalla, Record<Lado, Caso>> = {
  signin: {
    proyecto: (p) => medir(`${api.url}/signin`, 0, false, p),
    base: (p) => medir(`${urlBase}/ingreso.html`, 0, false, p),
  },
  lista: {
    proyecto: (p) => medir(`${api.url}/`, FILAS_PROYECTO, true, p),
    base: (p) => medir(`${urlBase}/lista.html`, FILAS_BASE, false, p),
  },
};
const PREVIA: Record<Lado, string> = {
  proyecto: `${api.url}/health`,
  base: `${urlBase}/filas.json`,
};

console.log(
  `Primera pantalla: tiempo hasta interactiva, CPU ×${CPU}, caché fría, ${RONDAS} rondas alternadas, medianas`,
);
console.log(`  máquina: ${os.cpus().length} núcleos, carga (1/5/15 min) al empezar: ${carga()}`);
// One load of each, outside the figures: the OS's file cache and the server's first answers.
for (const p of Object.values(CASOS)) for (const f of Object.values(p)) await f();

const res: Record<Pantalla, Record<Lado, Medida[]>> = {
  signin: { proyecto: [], base: [] },
  lista: { proyecto: [], base: [] },
};
for (let r = 0; r < RONDAS; r++)
  for (const pantalla of Object.keys(CASOS) as Pantalla[])
    for (const lado of (r % 2 ? ['base', 'proyecto'] : ['proyecto', 'base']) as Lado[]) {
      const m = await CASOS[pantalla][lado]();
      res[pantalla][lado].push(m);
      console.log(
        `    ronda ${r + 1} ${pantalla.padEnd(6)} ${lado.padEnd(8)} contenido ${m.contenido.toFixed(0).padStart(5)} ms, interactiva ${m.tti.toFixed(0).padStart(5)} ms (${m.largas} tareas largas)`,
      );
    }

const nombres: Record<Pantalla, string> = {
  signin: '/signin  vs formulario de ingreso antd mínimo',
  lista: `/ (lista, ${FILAS_PROYECTO} filas) vs layout + menú + tabla de ${FILAS_BASE} filas antd mínimos`,
};
let ok = true;
console.log(
  '\n  pantalla: interactiva proyecto / base (razón); contenido en pantalla proyecto / base',
);
for (const pantalla of Object.keys(CASOS) as Pantalla[]) {
  const p = res[pantalla];
  const [tp, tb] = [mediana(p.proyecto.map((m) => m.tti)), mediana(p.base.map((m) => m.tti))];
  const [cp, cb] = [
    mediana(p.proyecto.map((m) => m.contenido)),
    mediana(p.base.map((m) => m.contenido)),
  ];
  ok &&= tp / tb <= 1.2;
  console.log(
    `  ${nombres[pantalla]}\n    interactiva ${tp.toFixed(0)} ms / ${tb.toFixed(0)} ms (${(tp / tb).toFixed(2)}×); contenido ${cp.toFixed(0)} ms / ${cb.toFixed(0)} ms (${(cp / cb).toFixed(2)}×)`,
  );
}
console.log(`  carga al terminar: ${carga()}`);
if (PERFIL) {
  fs.mkdirSync(PERFIL, { recursive: true });
  for (const pantalla of Object.keys(CASOS) as Pantalla[])
    for (const lado of ['proyecto', 'base'] as Lado[]) {
      const archivo = path.join(PERFIL, `${pantalla}-${lado}.cpuprofile`);
      await CASOS[pantalla][lado]({ archivo, previa: PREVIA[lado] });
      console.log(`  perfil: ${archivo}`);
    }
  fs.cpSync(base, path.join(PERFIL, 'base'), { recursive: true });
}
await api.cerrar();
await servidorBase.close();
fs.rmSync(tmp, { recursive: true, force: true });
console.log(`${ok ? 'PASS' : 'FAIL'}: cada pantalla ≤ 1.2× su base`);
process.exit(ok ? 0 : 1);
