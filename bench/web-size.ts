/**
 * Web bundle size: the gzip size of the JavaScript the first screen loads (the entry script and
 * its modulepreload tags in apps/web/dist/index.html) beside two baselines measured in the same
 * run: a minimal react + react-dom + antd app bundled with esbuild, and the total of every chunk.
 * Fails when exceljs is not in a separate chunk or when the first screen loads it.
 *
 * Run: npx tsx bench/web-size.ts   (builds apps/web first when dist is missing)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const raiz = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(raiz, 'apps/web/dist');

if (!fs.existsSync(path.join(dist, 'index.html'))) {
  console.log('Construyendo apps/web…');
  const r = spawnSync('npm', ['run', 'build', '-w', '@pregon/web'], {
    cwd: raiz,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const gzip = (buf: Buffer | Uint8Array) => zlib.gzipSync(buf, { level: 9 }).length;
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

// 1. JavaScript of the first screen: <script type="module" src> and <link rel="modulepreload">.
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const inicial = new Set<string>();
for (const m of html.matchAll(/<script[^>]*\bsrc="([^"]+\.js)"/g)) inicial.add(m[1]!);
for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g)) {
  inicial.add(m[1]!);
}
const leer = (url: string) => fs.readFileSync(path.join(dist, url.replace(/^\//, '')));
let primera = 0;
for (const url of inicial) primera += gzip(leer(url));

// 2. Every chunk, and where exceljs went.
const assets = path.join(dist, 'assets');
const chunks = fs.readdirSync(assets).filter((f) => f.endsWith('.js'));
let todo = 0;
const conExcel: string[] = [];
for (const f of chunks) {
  const buf = fs.readFileSync(path.join(assets, f));
  todo += gzip(buf);
  // The workbook writer's part names only exist in exceljs.
  if (buf.includes('xl/workbook.xml') || buf.includes('xl/sharedStrings.xml')) {
    conExcel.push(`/assets/${f}`);
  }
}

// 3. Baseline: a minimal react + react-dom + antd app (one Button), minified with esbuild.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-bench-web-'));
const entrada = path.join(tmp, 'minimo.tsx');
fs.writeFileSync(
  entrada,
  `import { createRoot } from 'react-dom/client';
import { Button, ConfigProvider } from 'antd';
createRoot(document.getElementById('root')!).render(<ConfigProvider><Button>OK</Button></ConfigProvider>);
`,
);
const r = await build({
  entryPoints: [entrada],
  bundle: true,
  minify: true,
  format: 'esm',
  write: false,
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  nodePaths: [path.join(raiz, 'node_modules')],
  absWorkingDir: raiz,
  logLevel: 'silent',
});
const minimo = gzip(r.outputFiles[0]!.contents);
fs.rmSync(tmp, { recursive: true, force: true });

console.log('Tamaño de la web (gzip nivel 9)');
console.log(`  primera pantalla (${inicial.size} archivos JS): ${kb(primera)}`);
for (const url of inicial) console.log(`    ${url}: ${kb(gzip(leer(url)))}`);
console.log(`  base: react + react-dom + antd mínimo (esbuild): ${kb(minimo)}`);
console.log(`  base: todos los chunks (${chunks.length}): ${kb(todo)}`);
console.log(`  primera pantalla / mínimo antd: ${(primera / minimo).toFixed(2)}×`);

const enInicial = conExcel.filter((c) => inicial.has(c));
if (conExcel.length === 0) {
  console.error('FALLO: no se encontró el chunk de exceljs');
  process.exit(1);
}
if (enInicial.length > 0) {
  console.error(`FALLO: exceljs se carga en la primera pantalla (${enInicial.join(', ')})`);
  process.exit(1);
}
console.log(`  exceljs va aparte, fuera de la primera pantalla: ${conExcel.join(', ')}`);
