import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CANALES,
  CANAL_DE_PROTOCOLO,
  ETIQUETA_PROTOCOLO,
  PROTOCOLOS,
} from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import {
  CAMPOS_CREDENCIALES,
  FORMA_URL,
  SECCION_CREDENCIALES,
} from '@pregon/contract/rules/equipment';
import type { Db } from '@pregon/db/database';
import { MOTORES, abrirBasePrueba } from '../testing/entorno.ts';
import { crearEquipo } from '../testing/fabrica.ts';
import { canalDe, protocolosRegistrados } from './canal.ts';
// The dispatcher registers every channel it runs (its side-effect imports).
import './despachador.ts';

// Issue 44, 'Añadir un canal' (docs/canales.md): a protocol is one entry of the contract's
// PROTOCOLOS, and each part the product reads per protocol must exist for every entry: the
// records the type system already demands (a Record<Protocolo, …> fails to compile without it)
// are checked here for content, and the parts it cannot see (the dispatcher's registered channel,
// the database's CHECK of equipos.protocolo) are checked for real.

describe('cada protocolo tiene todas sus partes', () => {
  it.each(PROTOCOLOS)(
    '%s: canal registrado, etiqueta, canal de inicio, forma de url, credenciales',
    (p) => {
      const r = canalDe(p);
      expect(r, `falta registrarCanal('${p}', …) en dispatcher/canal-*.ts`).toBeDefined();
      expect(typeof r!.crear).toBe('function');
      expect(msg(ETIQUETA_PROTOCOLO[p])).not.toBe('');
      expect(CANALES).toContain(CANAL_DE_PROTOCOLO[p]);
      expect(Object.keys(FORMA_URL[p].esquemas).length).toBeGreaterThan(0);
      for (const e of Object.keys(FORMA_URL[p].esquemas)) expect(e).toMatch(/^[a-z]+:$/);
      expect(['tcp', 'http']).toContain(FORMA_URL[p].sonda);
      expect(msg(FORMA_URL[p].forma)).not.toBe('');
      expect(Array.isArray(CAMPOS_CREDENCIALES[p])).toBe(true);
      expect(SECCION_CREDENCIALES[p]).toMatch(/^[a-z]+$/);
    },
  );

  it('no hay canal registrado fuera de la lista del contrato', () => {
    expect([...protocolosRegistrados()].sort()).toEqual([...PROTOCOLOS].sort());
  });
});

describe.each(MOTORES)('la base acepta un equipo de cada protocolo (%s)', (motor) => {
  let db: Db;
  let limpiar: () => Promise<void>;
  beforeAll(async () => ({ db, limpiar } = await abrirBasePrueba(motor)));
  afterAll(async () => limpiar?.());

  it.each(PROTOCOLOS)('%s', async (p) => {
    const id = await crearEquipo(db, {
      protocolo: p,
      url: `${Object.keys(FORMA_URL[p].esquemas)[0]}//127.0.0.1:9`,
    });
    expect(id).toBeGreaterThan(0);
  });

  it('y rechaza uno que no está en la lista', async () => {
    await expect(crearEquipo(db, { protocolo: 'telegrama' })).rejects.toThrow();
  });
});
