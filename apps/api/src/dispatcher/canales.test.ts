import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CANALES,
  CANAL_DE_PROTOCOLO,
  ETIQUETA_PROTOCOLO,
  PROTOCOLOS,
} from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { PROTOCOLO, type DescriptorProtocolo } from '@pregon/contract/protocolos';
import { CANALES_BAJA } from '@pregon/contract/rules/bajas';
import { CANALES_RESPALDO } from '@pregon/contract/rules/respaldo';
import {
  CAMPOS_CREDENCIALES,
  FORMA_URL,
  SECCION_CREDENCIALES,
} from '@pregon/contract/rules/equipment';
import type { Db } from '@pregon/db/database';
import { MOTORES, abrirBasePrueba } from '../../testing/entorno.ts';
import { crearEquipo } from '../../testing/fabrica.ts';
import { canalDe, protocolosRegistrados } from '@pregon/despacho/canal';
// The dispatcher registers every channel it runs (its side-effect imports).
import '@pregon/despacho/despachador';

// Issue 44, 'Añadir un canal' (docs/canales.md): a protocol is one entry of the contract's
// PROTOCOLOS, and each part the product reads per protocol must exist for every entry: the
// records the type system already demands (a Record<Protocolo, …> fails to compile without it)
// are checked here for content, and the parts it cannot see (the dispatcher's registered channel,
// the database's CHECK of equipos.protocolo) are checked for real.

/** The parts a protocol's record lacks or gets wrong, each named: the checks of 'Añadir un canal'
 * that the type system cannot make (an empty label, no url scheme, a capability out of its
 * list, a fallback or opt-out list of another channel than the one it serves). */
function faltas(d: DescriptorProtocolo): string[] {
  const f: string[] = [];
  if (!d.etiqueta || !msg(d.etiqueta)) f.push('etiqueta');
  if (!CANALES.includes(d.canal)) f.push('canal de inicio');
  const esquemas = Object.keys(d.url?.esquemas ?? {});
  if (esquemas.length === 0 || esquemas.some((e) => !/^[a-z]+:$/.test(e)))
    f.push('esquemas de url');
  if (!['tcp', 'http'].includes(d.url?.sonda)) f.push('sonda');
  if (!d.url?.forma || !msg(d.url.forma)) f.push('forma de url');
  if (!Array.isArray(d.credenciales)) f.push('credenciales');
  else if (new Set(d.credenciales.map((c) => c.clave)).size !== d.credenciales.length)
    f.push('credenciales repetidas');
  if (!/^[a-z]+$/.test(d.seccion ?? '')) f.push('sección de credenciales');
  const c = d.capacidades;
  if (!c) return [...f, 'capacidades'];
  if (typeof c.respuestas !== 'boolean') f.push('capacidad respuestas');
  if (typeof c.recibos !== 'boolean') f.push('capacidad recibos');
  if (c.respaldo !== null && (!CANALES_RESPALDO.includes(c.respaldo) || c.respaldo !== d.canal))
    f.push('respaldo');
  if (c.bajas !== null && (!CANALES_BAJA.includes(c.bajas) || c.bajas !== d.canal))
    f.push('lista de bajas');
  // The opt-out words come in replies: a list without replies would never fill.
  if (c.bajas !== null && !c.respuestas) f.push('bajas sin respuestas');
  if (typeof c.marcado !== 'boolean') f.push('capacidad marcado');
  // A dial template places calls: only a call channel's devices have one.
  if (c.marcado && d.canal !== 'calls') f.push('marcado sin llamadas');
  return f;
}

describe('el registro de cada protocolo está completo', () => {
  it.each(PROTOCOLOS)('%s', (p) => {
    expect(faltas(PROTOCOLO[p])).toEqual([]);
  });

  it('un registro al que le falta una parte no pasa', () => {
    const sinPartes = {
      ...PROTOCOLO.smpp,
      etiqueta: undefined,
      url: { ...PROTOCOLO.smpp.url, esquemas: {} },
      capacidades: { ...PROTOCOLO.smpp.capacidades, bajas: 'whatsapp' },
    } as unknown as DescriptorProtocolo;
    expect(faltas(sinPartes)).toEqual(['etiqueta', 'esquemas de url', 'lista de bajas']);
    const sinCapacidades = { ...PROTOCOLO.asterisk, capacidades: undefined };
    expect(faltas(sinCapacidades as unknown as DescriptorProtocolo)).toEqual(['capacidades']);
  });
});

describe('cada protocolo tiene todas sus partes', () => {
  it.each(PROTOCOLOS)(
    '%s: canal registrado, etiqueta, canal de inicio, forma de url, credenciales',
    (p) => {
      const r = canalDe(p);
      expect(
        r,
        `falta registrarCanal('${p}', …) en despacho/src/canales/<protocolo>/canal.ts`,
      ).toBeDefined();
      expect(typeof r!.crear).toBe('function');
      expect(msg(ETIQUETA_PROTOCOLO[p])).not.toBe('');
      expect(CANALES).toContain(CANAL_DE_PROTOCOLO[p]);
      expect(Object.keys(FORMA_URL[p].esquemas).length).toBeGreaterThan(0);
      for (const e of Object.keys(FORMA_URL[p].esquemas)) expect(e).toMatch(/^[a-z]+:$/);
      expect(['tcp', 'http']).toContain(FORMA_URL[p].sonda);
      expect(msg(FORMA_URL[p].forma)).not.toBe('');
      expect(Array.isArray(CAMPOS_CREDENCIALES[p])).toBe(true);
      expect(SECCION_CREDENCIALES[p]).toMatch(/^[a-z]+$/);
      // A channel that binds to take held receipts reports receipts.
      if (r!.escucha) expect(PROTOCOLO[p].capacidades.recibos).toBe(true);
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
