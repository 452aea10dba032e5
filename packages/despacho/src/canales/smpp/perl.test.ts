import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canalDe, type Canal, type Recibo } from '../../canal.ts';
import './canal.ts';
import { CONFIG_PRUEBA, esperarQue } from '../../../testing/comun.ts';

// The SMPP channel against a peer that is neither our simulator nor built on the `smpp` package:
// an SMSC written with Perl's Net::SMPP (Debian libnet-smpp-perl, simulators/perl/smsc.pl). It
// checks what went on the wire (interface_version, TON/NPI, addresses) and answers hexadecimal
// ids whose receipts quote them in decimal, without the TLV. Skipped on a developer's machine
// where Net::SMPP is missing (apt-get install libnet-smpp-perl); in CI (.ci/run installs it) a
// missing Net::SMPP fails instead of skipping.

const hayPerl = spawnSync('perl', ['-MNet::SMPP', '-e', '1']).status === 0;
if (!hayPerl && process.env.CI) throw new Error('Falta Net::SMPP de Perl (libnet-smpp-perl)');
const SCRIPT = path.resolve(import.meta.dirname, '../../../../../simulators/perl/smsc.pl');

describe.skipIf(!hayPerl)('SMPP contra un SMSC independiente (Perl Net::SMPP)', () => {
  let perl: ChildProcess;
  const eventos: Record<string, unknown>[] = [];
  let puerto = 0;
  let canal: Canal;
  const recibos: Recibo[] = [];

  beforeAll(async () => {
    perl = spawn('perl', [SCRIPT, '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    readline
      .createInterface({ input: perl.stdout! })
      .on('line', (l) => eventos.push(JSON.parse(l) as Record<string, unknown>));
    puerto = (await esperarQue(
      async () => eventos.find((e) => e.puerto)?.puerto as number,
      'el puerto',
    ))!;
    canal = canalDe('smpp')!.crear({
      equipo: {
        id_equipo: 3,
        alias: 'Perl',
        url: `smpp://127.0.0.1:${puerto}`,
        protocolo: 'smpp',
        credenciales: {
          smpp: {
            system_id: 'pregon',
            password: 'x',
            system_type: 'PREGON',
            source_addr: 'PREGON',
          },
        },
      },
      config: CONFIG_PRUEBA,
      alRecibo: (r) => {
        recibos.push(r);
      },
    });
  });
  afterAll(async () => {
    await canal?.cerrar();
    perl?.kill();
  });

  it('bind con interface_version 0x34, TON/NPI de SMPP 3.4 y acuses con id decimal', async () => {
    const r1 = await canal.enviar({
      id_detalle: 1,
      telefono: '5512345678',
      texto: 'Simulacro',
      intentos: 1,
      id_gateway: null,
    });
    const r2 = await canal.enviar({
      id_detalle: 2,
      telefono: '+14155550100',
      texto: 'Simulacro',
      intentos: 1,
      id_gateway: null,
    });
    expect(r1).toEqual({ tipo: 'aceptado', id_gateway: '000000A0' });
    expect(r2).toEqual({ tipo: 'aceptado', id_gateway: '000000A1' });
    // The SMSC logs each submit on its stdout, which may reach us after its submit_sm_resp.
    const submits = await esperarQue(async () => {
      const s = eventos.filter((e) => e.evento === 'submit');
      return s.length >= 2 ? s : undefined;
    }, 'los dos submits en la bitácora del SMSC');
    expect(eventos.filter((e) => e.evento === 'bind')).toEqual([
      { evento: 'bind', system_id: 'pregon', system_type: 'PREGON', interface_version: 0x34 },
    ]);
    expect(submits).toEqual([
      {
        evento: 'submit',
        id: '000000A0',
        source_addr: 'PREGON',
        source_addr_ton: 5,
        source_addr_npi: 0,
        destination_addr: '525512345678',
        dest_addr_ton: 1,
        dest_addr_npi: 1,
        registered_delivery: 1,
      },
      expect.objectContaining({
        id: '000000A1',
        destination_addr: '14155550100',
        dest_addr_ton: 1,
      }),
    ]);
    // Receipts say id:0000000160 and id:0000000161: matched to 000000A0 and 000000A1.
    await esperarQue(async () => recibos.length === 2, 'los dos acuses');
    // Each names its recipient (source_addr), which issue 48.6's matching by recipient reads.
    expect(recibos).toEqual([
      {
        id_equipo: 3,
        id_gateway: '000000A0',
        entregado: true,
        motivo: undefined,
        telefono: '525512345678',
      },
      {
        id_equipo: 3,
        id_gateway: '000000A1',
        entregado: true,
        motivo: undefined,
        telefono: '14155550100',
      },
    ]);
  });
});
