import { describe, expect, it } from 'vitest';
import { planInicio, type EjercicioInicio, type OpcionesInicio } from './start.ts';

describe('planInicio', () => {
  it.each<[string, EjercicioInicio, OpcionesInicio, ReturnType<typeof planInicio>]>([
    ['SMS', { tipo_ejercicio: 'SMS' }, {}, { ok: true, tipo: 1, canal: 'sms', time: 0 }],
    // ARCHITECTURE correction 3: tiempo is minutes
    [
      'LLAMADA, 2 minutes',
      { tipo_ejercicio: 'LLAMADA', tiempo: 2 },
      {},
      { ok: true, tipo: 2, canal: 'calls', time: 120000 },
    ],
    [
      'LLAMADA, tiempo as string',
      { tipo_ejercicio: 'LLAMADA', tiempo: '1' },
      {},
      { ok: true, tipo: 2, canal: 'calls', time: 60000 },
    ],
    [
      'LLAMADA, no tiempo',
      { tipo_ejercicio: 'LLAMADA' },
      {},
      { ok: true, tipo: 2, canal: 'calls', time: 35000 },
    ],
    [
      'LLAMADA, null tiempo',
      { tipo_ejercicio: 'LLAMADA', tiempo: null },
      {},
      { ok: true, tipo: 2, canal: 'calls', time: 35000 },
    ],
    [
      'LLAMADA, empty tiempo',
      { tipo_ejercicio: 'LLAMADA', tiempo: '' },
      {},
      { ok: true, tipo: 2, canal: 'calls', time: 35000 },
    ],
    [
      'LLAMADA, zero tiempo',
      { tipo_ejercicio: 'LLAMADA', tiempo: 0 },
      {},
      { ok: true, tipo: 2, canal: 'calls', time: 35000 },
    ],
    [
      'CUESTIONARIO, 3 minutes',
      { tipo_ejercicio: 'CUESTIONARIO', accion: '3' },
      {},
      { ok: true, tipo: 4, canal: 'calls', time: 180000 },
    ],
    [
      'CUESTIONARIO, 10 minutes',
      { tipo_ejercicio: 'CUESTIONARIO', accion: 10 },
      {},
      { ok: true, tipo: 4, canal: 'calls', time: 600000 },
    ],
    [
      'CUESTIONARIO, bad accion',
      { tipo_ejercicio: 'CUESTIONARIO', accion: 'hola' },
      {},
      { ok: false, mensaje: 'El tiempo del cuestionario debe ser de 1 a 10 minutos' },
    ],
    [
      'WHATSAPP without a device',
      { tipo_ejercicio: 'WHATSAPP' },
      {},
      { ok: false, mensaje: 'API WHATSAPP NO DISPONIBLE' },
    ],
    [
      'WHATSAPP with a device',
      { tipo_ejercicio: 'WHATSAPP' },
      { whatsappDisponible: true },
      { ok: true, tipo: 3, canal: 'whatsapp', time: 0 },
    ],
    [
      'unknown label',
      { tipo_ejercicio: 'FAX', id_tipo_ejercicio: 1 },
      {},
      { ok: false, mensaje: 'API FAX NO DISPONIBLE' },
    ],
    [
      'label decides over id',
      { tipo_ejercicio: 'SMS', id_tipo_ejercicio: 2 },
      {},
      { ok: true, tipo: 1, canal: 'sms', time: 0 },
    ],
    [
      'no label: id decides',
      { id_tipo_ejercicio: '2', tiempo: 3 },
      {},
      { ok: true, tipo: 2, canal: 'calls', time: 180000 },
    ],
    [
      'no label, WhatsApp id',
      { tipo_ejercicio: '', id_tipo_ejercicio: 3 },
      {},
      { ok: false, mensaje: 'API WHATSAPP NO DISPONIBLE' },
    ],
    ['nothing at all', {}, {}, { ok: false, mensaje: 'API  NO DISPONIBLE' }],
  ])('%s', (_, ej, opciones, esperado) => {
    expect(planInicio(ej, opciones)).toEqual(esperado);
  });
});
