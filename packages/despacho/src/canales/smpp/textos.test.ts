import { describe, expect, it } from 'vitest';
import { analizarSms } from '@pregon/contract/rules/sms';
import type { OpcionesSmpp } from '@pregon/simulators/smpp';
import { esperarQue } from '../../../testing/comun.ts';
import { canalesSmpp } from '../../../testing/smpp.ts';

// What reaches the handset: texts of 1, 2 and 5 parts in GSM-7 and UCS-2 go through the SMPP
// channel and the simulator over loopback sockets, and the simulator reassembles and decodes them
// from the submit_sm octets to exactly the text typed; each part's receipt is matched.

const GSM = 'Simulacro de evacuación? No: é è ù ì ò à Ñ ñ ¿ ¡ € {[ ]} ~ | ^ \\ Ü Ö @ £ $ _ ';
const UCS = 'Simulacro: diríjase a la zona más cercana. á é í ó ú ñ ¿ ¡ € 🚨 ';

/** A text of `partes` parts made by repeating `base` (checked with the contract rule). */
function texto(base: string, partes: number): string {
  let t = base;
  while (analizarSms(t).partes < partes) t += base;
  while (analizarSms(t).partes > partes) t = [...t].slice(0, -1).join('');
  expect(analizarSms(t).partes).toBe(partes);
  return t;
}

const preparar = canalesSmpp({ sim: { retrasoReciboMs: 20 }, config: { backoffMs: 20 } });

const envio = (texto: string, id_detalle = 1) => ({
  id_detalle,
  telefono: `+52551234${String(id_detalle).padStart(4, '0')}`,
  texto,
  intentos: 1,
  id_gateway: null,
});

describe('SMPP: textos largos y codificación', () => {
  const casos: [string, string, number, Record<string, unknown>, OpcionesSmpp][] = [];
  for (const partes of [1, 2, 5]) {
    casos.push([`GSM-7, ${partes} parte(s), UDH`, GSM, partes, {}, {}]);
    casos.push([`UCS-2, ${partes} parte(s), UDH`, UCS, partes, {}, {}]);
  }
  casos.push([
    'GSM-7 empaquetado, 5 partes',
    GSM,
    5,
    { gsm_empaquetado: true },
    { gsmEmpaquetado: true },
  ]);
  casos.push([
    'GSM-7 empaquetado, 1 parte',
    GSM,
    1,
    { gsm_empaquetado: true },
    { gsmEmpaquetado: true },
  ]);
  casos.push(['GSM-7 con data_coding 1, 2 partes', GSM, 2, { data_coding: 1 }, {}]);
  casos.push([
    'GSM-7 con data_coding 3 (sin €), 2 partes',
    'Señal ¿ñ? ¡Ü! ',
    2,
    { data_coding: 3 },
    {},
  ]);
  casos.push(['UCS-2, 5 partes, SAR', UCS, 5, { concatenacion: 'sar' }, {}]);
  casos.push(['GSM-7, 2 partes, message_payload', GSM, 2, { concatenacion: 'payload' }, {}]);

  it.each(casos)('%s: llega exactamente lo escrito', async (_n, base, partes, smpp, sim) => {
    const p = await preparar(smpp, sim);
    const t = texto(base, partes);
    const r = await p.canal.enviar(envio(t));
    expect(r.tipo).toBe('aceptado');
    const id = r.tipo === 'aceptado' ? r.id_gateway : '';
    const submits = smpp.concatenacion === 'payload' ? 1 : partes;
    expect(p.sim.partesAceptadas).toBe(submits);
    expect(p.sim.registro).toHaveLength(1);
    expect(p.sim.registro[0]).toMatchObject({ telefono: '+525512340001', partes: submits, id });
    expect(p.sim.registro[0]!.texto).toBe(t);
    // One receipt per submit, under that part's id (the store counts a long text's parts).
    const partesIds = r.tipo === 'aceptado' && r.partes ? r.partes : [id];
    expect(partesIds).toHaveLength(submits);
    await esperarQue(async () => p.recibos.length === submits, 'un acuse por parte', 5_000);
    await new Promise((ok) => setTimeout(ok, 60));
    expect(p.recibos).toEqual(
      partesIds.map((x) => ({
        id_equipo: 7,
        id_gateway: x,
        entregado: true,
        telefono: '525512340001',
      })),
    );
  });

  it('los acuses de varios destinatarios con textos de 5 partes se casan con el suyo', async () => {
    const p = await preparar();
    const t = texto(UCS, 5);
    const r = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => p.canal.enviar(envio(t, i))));
    const ids = r.map((x) => (x.tipo === 'aceptado' ? x.id_gateway : x.tipo));
    expect(new Set(ids).size).toBe(6);
    expect(p.sim.partesAceptadas).toBe(30);
    expect(p.sim.registro.map((m) => m.texto)).toEqual(Array(6).fill(t));
    expect(new Set(p.sim.registro.map((m) => m.id))).toEqual(new Set(ids));
    // Every part's receipt comes under the id its submit got, first part included.
    const partes = r.flatMap((x) => (x.tipo === 'aceptado' ? (x.partes ?? []) : []));
    expect(new Set(partes).size).toBe(30);
    expect(r.every((x) => x.tipo === 'aceptado' && x.id_gateway === `${x.partes![0]}+4`)).toBe(
      true,
    );
    await esperarQue(async () => p.recibos.length === 30, 'treinta acuses', 5_000);
    expect(new Set(p.recibos.map((x) => x.id_gateway))).toEqual(new Set(partes));
    expect(p.recibos.every((x) => x.entregado)).toBe(true);
  });

  it('una parte intermedia rechazada por el SMSC hace fallar al destinatario con el motivo', async () => {
    const p = await preparar({}, { fallarParte: { parte: 3, como: 'submit' } });
    const r = await p.canal.enviar(envio(texto(GSM, 5)));
    expect(r).toMatchObject({ tipo: 'fallido', motivo: 'SMPP 0x45 (parte 3 de 5)' });
    expect(p.sim.registro).toHaveLength(0);
    // The parts the SMSC took are named (their receipts find the row, which stays fallido).
    const partes = r.tipo === 'fallido' ? r.partes! : [];
    expect(partes.map((x) => x !== '')).toEqual([true, true, false, true, true]);
    await esperarQue(async () => p.recibos.length === 4, 'cuatro acuses', 5_000);
    expect(new Set(p.recibos.map((x) => x.id_gateway))).toEqual(new Set(partes.filter(Boolean)));
  });

  it('una parte intermedia no entregada hace fallar al destinatario al llegar su acuse', async () => {
    const p = await preparar({}, { fallarParte: { parte: 2, como: 'recibo' } });
    const r = await p.canal.enviar(envio(texto(UCS, 5)));
    expect(r.tipo).toBe('aceptado');
    await esperarQue(async () => p.recibos.length === 5, 'cinco acuses', 5_000);
    const partes = r.tipo === 'aceptado' ? r.partes! : [];
    expect(p.recibos.filter((x) => !x.entregado)).toEqual([
      {
        id_equipo: 7,
        id_gateway: partes[1],
        entregado: false,
        motivo: 'SMPP: no entregable (UNDELIV, err:000)',
        telefono: '525512340001',
      },
    ]);
  });

  it('una parte intermedia con throttling se reintenta sola y el texto llega entero', async () => {
    const p = await preparar({}, { fallarParte: { parte: 2, como: 'throttling' } });
    const t = texto(GSM, 3);
    const enviado = p.canal.enviar(envio(t));
    // The SMSC stops throttling part 2 before the channel's retries (20, 40, 80 ms) run out.
    setTimeout(() => (p.sim.fallarParte = undefined), 30);
    const r = await enviado;
    expect(r.tipo).toBe('aceptado');
    expect(p.sim.registro.map((m) => m.texto)).toEqual([t]);
    await esperarQue(async () => p.recibos.length === 3, 'tres acuses', 5_000);
    expect(p.recibos.every((x) => x.entregado)).toBe(true);
  });

  it('throttling persistente en una parte intermedia: fallido con el motivo tras los reintentos', async () => {
    const p = await preparar({}, { fallarParte: { parte: 2, como: 'throttling' } });
    const r = await p.canal.enviar(envio(texto(GSM, 3)));
    expect(r).toMatchObject({ tipo: 'fallido', motivo: 'SMPP 0x58 (parte 2 de 3)' });
  });

  it('throttling en la primera parte: reintentar (nada salió)', async () => {
    const p = await preparar({}, { fallarParte: { parte: 1, como: 'throttling' } });
    const r = await p.canal.enviar(envio(texto(GSM, 2)));
    expect(r).toEqual({ tipo: 'reintentar', motivo: 'SMPP 0x58' });
    expect(p.sim.partesAceptadas).toBe(0);
  });

  it('el bind anuncia interface_version 0x34 (v3.4) y el system_type del equipo; otra versión por equipo', async () => {
    const p = await preparar({ system_type: 'PREGON' });
    await p.canal.enviar(envio('Hola'));
    expect(p.sim.binds).toEqual([
      { system_id: 'u', system_type: 'PREGON', interface_version: 0x34 },
    ]);
    const q = await preparar({ interface_version: '0x50' });
    await q.canal.enviar(envio('Hola'));
    expect(q.sim.binds[0]).toMatchObject({ system_type: '', interface_version: 0x50 });
  });
});
