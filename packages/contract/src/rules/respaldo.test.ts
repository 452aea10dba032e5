import { describe, expect, it } from 'vitest';
import {
  RESPALDO_POR_CANAL,
  admiteRespaldo,
  canalDeRespaldo,
  erroresRespaldo,
  llevaRespaldo,
  respaldoDeCompanero,
} from './respaldo.ts';

describe('llevaRespaldo', () => {
  it('the final outcomes that did not reach the person get the fallback', () => {
    for (const e of ['ocupado', 'no_contesto', 'fallido', 'invalido'])
      expect(llevaRespaldo(e), e).toBe(true);
    expect(llevaRespaldo('contestado', 'colgo')).toBe(true);
    expect(llevaRespaldo('respondido', 'respondio_parcial')).toBe(true);
    expect(llevaRespaldo('respondido', 'sin_respuesta')).toBe(true);
  });
  it('reached, retried, in flight, stopped or uncertain: no fallback', () => {
    expect(llevaRespaldo('contestado', 'escucho')).toBe(false);
    expect(llevaRespaldo('respondido', 'respondio_todo')).toBe(false);
    expect(llevaRespaldo('contestado')).toBe(false);
    for (const e of ['pendiente', 'en_curso', 'incierto', 'cancelado', 'enviado', 'entregado'])
      expect(llevaRespaldo(e), e).toBe(false);
  });
  it('only calls and quizzes', () => {
    expect([1, 2, 3, 4].map(admiteRespaldo)).toEqual([false, true, false, true]);
  });
});

describe('erroresRespaldo (SMS or WhatsApp template)', () => {
  const plantilla = {
    plantilla: 'aviso_simulacro',
    idioma: 'es_MX',
    parametros: ['Centro', 'Patio'],
  };
  const quiz = 4;

  it('no field: no fallback, no error, whatever the type', () => {
    expect(erroresRespaldo({ tipo_ejercicio: 1 })).toEqual([]);
    expect(erroresRespaldo({ tipo_ejercicio: quiz })).toEqual([]);
  });

  it('SMS (the default channel): device and text; a template is the other channel', () => {
    expect(
      erroresRespaldo({ tipo_ejercicio: 2, respaldo_equipo: 5, respaldo_texto: 'Hola' }),
    ).toEqual([]);
    expect(
      erroresRespaldo({ tipo_ejercicio: 2, respaldo_canal: 'sms', respaldo_equipo: 5 }),
    ).toEqual([
      { campo: 'respaldo_texto', mensaje: 'El campo Texto del SMS de respaldo es obligatorio' },
    ]);
    expect(
      erroresRespaldo({
        tipo_ejercicio: 2,
        respaldo_equipo: 5,
        respaldo_texto: 'Hola',
        respaldo_plantilla: plantilla,
      }),
    ).toEqual([
      {
        campo: 'respaldo_plantilla',
        mensaje: 'El campo Plantilla de WhatsApp de respaldo solo aplica al respaldo por WhatsApp',
      },
    ]);
  });

  it('WhatsApp: device and template with every parameter written; no SMS text', () => {
    const wa = { tipo_ejercicio: quiz, respaldo_canal: 'whatsapp' as const };
    expect(erroresRespaldo({ ...wa, respaldo_equipo: 7, respaldo_plantilla: plantilla })).toEqual(
      [],
    );
    expect(erroresRespaldo(wa)).toEqual([
      { campo: 'respaldo_equipo', mensaje: 'El campo Equipo de respaldo es obligatorio' },
      {
        campo: 'respaldo_plantilla',
        mensaje: 'El campo Plantilla de WhatsApp de respaldo es obligatorio',
      },
    ]);
    expect(
      erroresRespaldo({
        ...wa,
        respaldo_equipo: 7,
        respaldo_plantilla: { ...plantilla, parametros: ['Centro', ' '] },
        respaldo_texto: 'Hola',
      }),
    ).toEqual([
      {
        campo: 'respaldo_texto',
        mensaje: 'El campo Texto del SMS de respaldo solo aplica al respaldo por SMS',
      },
      {
        campo: 'respaldo_plantilla',
        mensaje:
          'El campo Plantilla de WhatsApp de respaldo tiene parámetros vacíos: escriba cada parámetro de la plantilla',
      },
    ]);
  });

  it('only calls and quizzes, whichever the channel', () => {
    expect(erroresRespaldo({ tipo_ejercicio: 3, respaldo_canal: 'whatsapp' })).toEqual([
      {
        campo: 'respaldo_equipo',
        mensaje: 'El campo Equipo de respaldo solo aplica a llamadas y cuestionarios',
      },
    ]);
  });
});

describe('the companion names its channel', () => {
  it('by its type: SMS 1, WhatsApp 3; devices by protocol', () => {
    expect([1, 2, 3, 4, null].map(canalDeRespaldo)).toEqual(['sms', null, 'whatsapp', null, null]);
    expect(RESPALDO_POR_CANAL.sms.protocolos).toEqual(['smpp', 'android']);
    expect(RESPALDO_POR_CANAL.whatsapp.protocolos).toEqual(['whatsapp']);
  });
  it('a list row reads back the SMS text or the template', () => {
    expect(respaldoDeCompanero({ id_tipo_ejercicio: 1, accion: 'Hola' })).toEqual({
      respaldo_canal: 'sms',
      respaldo_texto: 'Hola',
      respaldo_plantilla: null,
    });
    expect(
      respaldoDeCompanero({
        id_tipo_ejercicio: 3,
        accion: '{"plantilla":"fin_simulacro","idioma":"es_MX","parametros":[]}',
      }),
    ).toEqual({
      respaldo_canal: 'whatsapp',
      respaldo_texto: null,
      respaldo_plantilla: { plantilla: 'fin_simulacro', idioma: 'es_MX', parametros: [] },
    });
    expect(respaldoDeCompanero({ id_tipo_ejercicio: null, accion: null })).toEqual({
      respaldo_canal: null,
      respaldo_texto: null,
      respaldo_plantilla: null,
    });
  });
});
