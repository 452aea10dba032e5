import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// Issue 44.7: the layer rules run in `npm run lint` (eslint.config.js) and a violation fails
// it. Each case lints one import as if written in a file of that layer; the allowed ones prove
// the rule is not simply 'everything fails'.

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });
});

/** The messages of the layer rule for `codigo` written at `archivo`. */
async function capas(archivo: string, codigo: string): Promise<string[]> {
  const [r] = await eslint.lintText(`${codigo}\nexport const usado = x;\n`, { filePath: archivo });
  return r!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('capas (eslint.config.js)', { timeout: 60_000 }, () => {
  it.each([
    [
      'apps/api/src/routes/nueva.ts',
      "import x from '../repositories/telefonos.ts';",
      'una ruta llama a servicios',
    ],
    [
      'apps/api/src/routes/nueva.ts',
      "import x from '@pregon/db/database';",
      'una ruta llama a servicios',
    ],
    [
      'apps/api/src/routes/nueva.ts',
      "import x from '@pregon/despacho/despachador';",
      'una ruta llama a servicios',
    ],
    [
      'apps/api/src/services/nuevo.ts',
      "import x from '@pregon/despacho/canales/smpp/canal';",
      'piezas internas del despachador',
    ],
    [
      'apps/api/src/services/nuevo.ts',
      "import x from '@pregon/despacho/comprobacion';",
      'piezas internas del despachador',
    ],
    [
      'apps/api/src/routes/nueva.ts',
      "import x from '../dispatcher/index.ts';",
      'una ruta llama a servicios',
    ],
    [
      'apps/api/src/services/nuevo.ts',
      "import x from '../dispatcher/index.ts';",
      'piezas internas del despachador',
    ],
    [
      'apps/api/src/services/nuevo.ts',
      "import x from '../routes/cap.ts';",
      'un servicio no importa rutas',
    ],
    [
      'packages/despacho/src/nuevo.ts',
      "import x from '../../../apps/api/src/services/ejercicios.ts';",
      'el despachador no importa la api',
    ],
    [
      'packages/despacho/src/nuevo.ts',
      "import x from '@pregon/api/routes/cap';",
      'el despachador no importa la api',
    ],
    [
      'packages/despacho/src/nuevo.ts',
      "import x from '@pregon/simulators/smpp';",
      'el despachador importa solo',
    ],
    [
      'packages/despacho/src/canales/x/canal.ts',
      "import x from '../../../testing/comun.ts';",
      'el despachador importa solo',
    ],
    [
      'apps/api/src/routes/nueva.ts',
      "import x from '@pregon/despacho';",
      'una ruta llama a servicios',
    ],
    [
      'apps/api/src/main-nuevo.ts',
      "import x from '@pregon/despacho/store-sqlite';",
      'por la entrada de su paquete',
    ],
    [
      'apps/pbx/src/nuevo.ts',
      "import x from '@pregon/api/services/ejercicios';",
      'una app no importa otra',
    ],
    [
      'apps/pbx/src/nuevo.ts',
      "import x from '@pregon/api/auth/sesiones';",
      'una app no importa otra',
    ],
    [
      'packages/servidor/src/nuevo.ts',
      "import x from '@pregon/api/services/claves';",
      'un paquete no importa una app',
    ],
    ['apps/web/src/lib/nuevo.ts', "import x from '@pregon/api/config';", 'una app no importa otra'],
    [
      'packages/db/src/nuevo.ts',
      "import x from '@pregon/api/auth/passwords';",
      'un paquete no importa una app',
    ],
    [
      'packages/db/src/nuevo.ts',
      "import x from '../../../apps/api/src/config.ts';",
      'un paquete no importa una app',
    ],
    [
      'apps/web/src/features/telefonos/components/nuevo.tsx',
      "import x from '../../ejercicios/api/x.ts';",
      'una característica de la web no importa otra',
    ],
    [
      'apps/web/src/features/paises/nuevo.tsx',
      "import { x } from '@ant-design/icons';",
      'components/iconos.tsx',
    ],
    [
      'apps/web/src/ejercicio/components/nuevo.tsx',
      "import x from '../../features/ejercicios/api/cuestionario.ts';",
      'no importa una característica',
    ],
  ])('%s: %s → falla', async (archivo, codigo, texto) => {
    const m = await capas(archivo, codigo);
    expect(m, m.join('\n')).toHaveLength(1);
    expect(m[0]).toContain(texto);
  });

  it.each([
    ['apps/api/src/routes/nueva.ts', "import x from '../services/telefonos.ts';"],
    ['apps/api/src/services/nuevo.ts', "import x from '../repositories/telefonos.ts';"],
    ['apps/api/src/services/nuevo.ts', "import x from '@pregon/despacho';"],
    ['packages/despacho/src/nuevo.ts', "import x from '@pregon/db/database';"],
    ['packages/despacho/src/nuevo.ts', "import x from '@pregon/ami';"],
    ['packages/despacho/src/canales/x/canal.ts', "import x from '../../canal.ts';"],
    ['apps/api/src/main-nuevo.ts', "import x from './dispatcher/index.ts';"],
    ['apps/api/src/services/nuevo.ts', "import x from '@pregon/db/database';"],
    ['packages/despacho/src/nuevo.ts', "import x from './canal.ts';"],
    ['apps/pbx/src/nuevo.ts', "import x from '@pregon/contract/messages';"],
    ['apps/pbx/src/nuevo.ts', "import x from '@pregon/servidor/http/rutas';"],
    ['apps/api/src/routes/nueva.ts', "import x from '@pregon/servidor/http/errores';"],
    [
      'apps/web/src/features/telefonos/components/nuevo.tsx',
      "import x from '../../../components/tabla-adaptable.tsx';",
    ],
    [
      'apps/web/src/features/telefonos/components/nuevo.tsx',
      "import x from '../api/get-catalogos.ts';",
    ],
    ['apps/api/src/routes/nueva.test.ts', "import x from '../repositories/telefonos.ts';"],
  ])('%s: %s → permitido', async (archivo, codigo) => {
    expect(await capas(archivo, codigo)).toEqual([]);
  });
});
