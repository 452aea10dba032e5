#!/usr/bin/env node
// Post-build step of the web app (`npm run build -w @pregon/web`): writes a gzip (`.gz`) and a
// brotli (`.br`) copy beside every compressible file of the build, at the strongest levels, so
// the api serves them by Accept-Encoding without compressing at each request (@fastify/static's
// `preCompressed`). node:zlib does both formats; no vite plugin is needed for 40 lines.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

/** Extensions worth compressing (fonts as woff2, images and archives already are). */
const COMPRIMIBLES = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.svg',
  '.txt',
  '.map',
  '.xml',
  '.ico',
]);
/** Below this size a compressed copy saves less than its headers cost. */
const MINIMO = 1024;

/** Every file under `dir`, recursively. */
function archivos(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const ruta = path.join(dir, e.name);
    return e.isDirectory() ? archivos(ruta) : [ruta];
  });
}

/** Writes `archivo.gz` and `archivo.br` for each compressible file of `dir`; returns how many. */
export function precomprimir(dir) {
  let n = 0;
  for (const archivo of archivos(dir)) {
    if (!COMPRIMIBLES.has(path.extname(archivo))) continue;
    const datos = fs.readFileSync(archivo);
    if (datos.length < MINIMO) continue;
    fs.writeFileSync(`${archivo}.gz`, zlib.gzipSync(datos, { level: 9 }));
    fs.writeFileSync(
      `${archivo}.br`,
      zlib.brotliCompressSync(datos, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: datos.length,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        },
      }),
    );
    n += 1;
  }
  return n;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = path.resolve(process.argv[2] ?? 'dist');
  const n = precomprimir(dir);
  console.log(`Comprimidos con gzip y brotli: ${n} archivos de ${dir}`);
}
