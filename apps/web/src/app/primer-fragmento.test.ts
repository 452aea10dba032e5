import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

// The first screen's chunk holds what every screen needs before its own module arrives: React,
// the router, Ant Design's provider, the session and the guard. zod is not among them (issue
// 27.3: its 96 kB of schemas code ran at every first load while only the screens use it): the
// module graph that main.tsx imports statically must not reach it. esbuild bundles the entry
// with code splitting, as vite does, and its metafile says which inputs each output holds.
describe('web: el primer fragmento', () => {
  it('no incluye zod ni los esquemas del contrato', { timeout: 60_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-fragmento-'));
    try {
      const r = await build({
        entryPoints: [path.join(import.meta.dirname, '../main.tsx')],
        bundle: true,
        splitting: true,
        format: 'esm',
        outdir: dir,
        metafile: true,
        jsx: 'automatic',
        loader: { '.css': 'empty', '.svg': 'empty', '.png': 'empty' },
        logLevel: 'silent',
      });
      // The entry's output and the chunks it imports statically (esbuild moves code shared
      // with the lazy screens into such chunks): everything loaded before the first screen's own.
      const salidas = r.metafile.outputs;
      const primeras = new Set<string>();
      const pendientes = Object.keys(salidas).filter((o) =>
        salidas[o]!.entryPoint?.endsWith('main.tsx'),
      );
      while (pendientes.length) {
        const o = pendientes.pop()!;
        if (primeras.has(o)) continue;
        primeras.add(o);
        for (const i of salidas[o]!.imports)
          if (i.kind === 'import-statement') pendientes.push(i.path);
      }
      const modulos = [...primeras].flatMap((o) => Object.keys(salidas[o]!.inputs));
      expect(modulos.some((m) => m.includes('src/app/router.tsx'))).toBe(true);
      expect(modulos.filter((m) => /node_modules\/zod\//.test(m))).toEqual([]);
      expect(
        modulos.filter(
          (m) => /contract\/src\/(api|esquemas)/.test(m) && !m.endsWith('endpoint.ts'),
        ),
      ).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
