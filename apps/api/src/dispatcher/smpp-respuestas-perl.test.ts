import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@pregon/db/database';
import { abrirBaseSembrada, MOTORES } from '../../testing/entorno.ts';
import { canalDe, type Canal } from '@pregon/despacho/canal';
import '@pregon/despacho/canales/smpp/canal';
import { storePara } from './index.ts';
import { CONFIG_PRUEBA, esperarQue } from '@pregon/despacho/testing/comun';

// Replies (issue 46) from a peer that is neither our simulator nor built on the `smpp` package:
// Perl's Net::SMPP (simulators/perl/smsc.pl with 'mo') sends MO deliver_sm after the bind (UCS-2
// with an emoji, GSM-7, two parts with SAR TLVs) and resends one answered with an error. Skipped
// where Net::SMPP is missing, except in CI (as smpp-perl.test.ts).

const hayPerl = spawnSync('perl', ['-MNet::SMPP', '-e', '1']).status === 0;
if (!hayPerl && process.env.CI) throw new Error('Falta Net::SMPP de Perl (libnet-smpp-perl)');
const SCRIPT = path.resolve(import.meta.dirname, '../../../../simulators/perl/smsc.pl');

describe.skipIf(!hayPerl).each(MOTORES)('respuestas desde un SMSC Net::SMPP (%s)', (motor) => {
  let perl: ChildProcess;
  const eventos: Record<string, unknown>[] = [];
  let db: Db;
  let limpiar: () => Promise<void>;
  let canal: Canal;
  let fallar = 1;

  beforeAll(async () => {
    ({ db, limpiar } = await abrirBaseSembrada(motor));
    const store = storePara(db);
    perl = spawn('perl', [SCRIPT, '0', 'mo'], { stdio: ['ignore', 'pipe', 'inherit'] });
    readline
      .createInterface({ input: perl.stdout! })
      .on('line', (l) => eventos.push(JSON.parse(l) as Record<string, unknown>));
    const puerto = await esperarQue(
      async () => eventos.find((e) => e.puerto)?.puerto as number,
      'el puerto',
    );
    canal = canalDe('smpp')!.crear({
      equipo: {
        id_equipo: 3,
        alias: 'Perl',
        url: `smpp://127.0.0.1:${puerto}`,
        protocolo: 'smpp',
        credenciales: { smpp: { system_id: 'pregon', password: 'x' } },
      },
      config: CONFIG_PRUEBA,
      alRecibo: () => {},
      alRespuesta: async (r) => {
        if (fallar-- > 0) throw new Error('la base no responde');
        await store.guardarRespuesta(r, Date.now());
      },
    });
  });
  afterAll(async () => {
    await canal?.cerrar();
    perl?.kill();
    await limpiar?.();
  });

  it('UCS-2, GSM-7 y dos partes SAR se guardan una vez; la rechazada se reenvía', async () => {
    await canal.escuchar?.();
    // 4 deliver_sm plus the resend of the one refused.
    await esperarQue(
      async () => eventos.filter((e) => e.evento === 'mo_resp').length === 5,
      'las respuestas a los deliver_sm',
    );
    expect(eventos.filter((e) => e.evento === 'mo_resp').map((e) => e.estado)).toEqual([
      0x64, 0, 0, 0, 0,
    ]);
    const filas = await db.kysely
      .selectFrom('respuestas_recibidas')
      .select(['remitente', 'telefono', 'texto', 'codificacion', 'partes'])
      .execute();
    // In code-unit order (each engine's collation orders texts its own way).
    filas.sort((a, b) => (a.texto < b.texto ? -1 : 1));
    expect(filas).toEqual([
      {
        remitente: '525512345678',
        telefono: '5512345678',
        texto: 'ALTA 2',
        codificacion: 'GSM-7',
        partes: 1,
      },
      {
        remitente: '525512345678',
        telefono: '5512345678',
        texto: 'Sí 👍 1',
        codificacion: 'UCS-2',
        partes: 1,
      },
      {
        remitente: '525512345678',
        telefono: '5512345678',
        texto: 'parte uno parte dos',
        codificacion: 'GSM-7',
        partes: 2,
      },
    ]);
  });
});
