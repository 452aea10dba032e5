import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { COMPONENTES_SIN_USO, NOMBRES_SIN_USO, filtrarEstilosAntd } from '../../estilos-antd.ts';

// Issue 45 (first screen): the build drops from antd.css the rules of the components no screen
// uses (estilos-antd.ts). A screen that starts using one of them must take it off the list, or
// it would render without styles: every `import { … } from 'antd'` of the app is checked here.

const css = fs.readFileSync(createRequire(import.meta.url).resolve('antd/dist/antd.css'), 'utf8');

/** Every name the app imports from 'antd' (components, hooks, static APIs). */
function importadosDeAntd(): Set<string> {
  const nombres = new Set<string>();
  const recorrer = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) recorrer(p);
      else if (/\.tsx?$/.test(e.name) && !e.name.includes('.test.')) {
        const texto = fs.readFileSync(p, 'utf8');
        for (const m of texto.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'antd'/g))
          for (const x of m[1]!.split(','))
            nombres.add(
              x
                .trim()
                .replace(/^type\s+/, '')
                .split(/\s+as\s+/)[0]!,
            );
        if (/from 'antd\/es\/(\w+)/.test(texto))
          for (const m of texto.matchAll(/from 'antd\/es\/([\w-]+)/g)) nombres.add(`es/${m[1]}`);
      }
    }
  };
  recorrer(path.join(import.meta.dirname, '..'));
  return nombres;
}

describe('web: estilos de Ant Design sin los componentes que no se usan', () => {
  it('ningún componente de la lista se importa en la app', () => {
    const usados = importadosDeAntd();
    expect(usados.has('Table')).toBe(true);
    for (const nombre of NOMBRES_SIN_USO) expect(usados.has(nombre), nombre).toBe(false);
  });

  it('quita sus reglas y ninguna de los usados', () => {
    const filtrado = filtrarEstilosAntd(css);
    expect(filtrado.length).toBeLessThan(css.length * 0.8);
    for (const p of COMPONENTES_SIN_USO) {
      // (booleans, not the 700-kB text, on failure)
      expect(new RegExp(`\\.ant-${p}(?![a-z0-9-])`).test(filtrado), p).toBe(false);
      expect(filtrado.includes(`[class^="ant-${p}"]`), p).toBe(false);
    }
    // The used components keep every rule: Select (beside the unused 'select-tree'), Upload's
    // list (beside the unused 'list'), Table, Menu, Picker; a :not() of an unused class stays.
    const reglas = (texto: string, clase: string) =>
      texto.split('}').filter((r) => r.includes(clase) && !r.includes('@keyframes')).length;
    for (const clase of [
      '.ant-select-selector',
      '.ant-upload-list-item',
      '.ant-table-cell',
      '.ant-menu-item',
      '.ant-picker-dropdown',
      '.ant-btn-primary',
      '.ant-message-notice',
    ])
      expect(reglas(filtrado, clase), clase).toBe(reglas(css, clase));
    expect(filtrarEstilosAntd('.ant-btn:not(.ant-badge){color:red}')).toBe(
      '.ant-btn:not(.ant-badge){color:red}',
    );
    expect(
      filtrarEstilosAntd(
        '@media (max-width:575px){.ant-tree,.ant-form{x:1}.ant-steps{y:2}}@keyframes a{0%{z:1}}',
      ),
    ).toBe('@media (max-width:575px){.ant-form{x:1}}@keyframes a{0%{z:1}}');
  });
});
