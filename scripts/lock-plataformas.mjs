#!/usr/bin/env node
// Completes package-lock.json with the other platforms' optional packages of rollup
// (@rollup/rollup-<os>-<cpu>[-<libc>]), which this machine's npm registry does not serve and so
// never writes into the lock. Without them `npm ci` refuses the lock ("Missing: … from lock
// file"). Each entry records only the version and the platform it is for, exactly as rollup's
// own package.json declares them; npm skips them on any other platform without downloading.
// Run after every change to dependencies: `node scripts/lock-plataformas.mjs`.
import fs from 'node:fs';

const ruta = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(fs.readFileSync(ruta, 'utf8'));
const paquetes = lock.packages;
const LIBC = { gnu: 'glibc', gnueabihf: 'glibc', musl: 'musl', musleabihf: 'musl' };
let agregados = 0;
for (const [ruta, p] of Object.entries(paquetes)) {
  if (!ruta.endsWith('node_modules/rollup')) continue;
  for (const [nombre, version] of Object.entries(p.optionalDependencies ?? {})) {
    const clave = `node_modules/${nombre}`;
    if (paquetes[clave]) continue;
    const m = /^@rollup\/rollup-([a-z0-9]+)-([a-z0-9]+)(?:-([a-z]+))?$/.exec(nombre);
    if (!m) throw new Error(`no sé la plataforma de ${nombre}`);
    const [, os, cpu0, sufijo] = m;
    const cpu = cpu0 === 'arm' ? 'arm' : cpu0;
    const libc = sufijo && LIBC[sufijo];
    paquetes[clave] = {
      version,
      cpu: [cpu],
      ...(p.dev ? { dev: true } : {}),
      license: 'MIT',
      optional: true,
      os: [os],
      ...(libc ? { libc: [libc] } : {}),
    };
    agregados++;
  }
}
lock.packages = Object.fromEntries(Object.entries(paquetes).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)));
fs.writeFileSync(ruta, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${agregados} paquetes opcionales de otras plataformas agregados`);
