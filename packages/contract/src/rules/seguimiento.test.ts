import { describe, expect, it } from 'vitest';
import { msg } from '../messages.ts';
import {
  celdasSeguimiento,
  conteoGrupos,
  copiaSeguimiento,
  efectoRespaldo,
  ETIQUETA_GRUPO,
  GRUPOS_SEGUIMIENTO,
  gruposDeEjercicio,
  gruposDePersona,
  marcadoDeInicio,
  esGrupoRespuesta,
  etiquetaGrupo,
  gruposDeTipo,
  totalElegido,
  RESULTADOS_GRUPO,
  resultadosDeGrupos,
} from './seguimiento.ts';
import { alcanzado, RESULTADOS } from './alcance.ts';

describe("'Reenviar a no alcanzados' outcome sets (issue 25.1)", () => {
  it.each([
    [1, ['sms_no_entregado', 'fallido', 'cancelado']],
    [2, ['no_contesto', 'ocupado', 'colgo', 'fallido', 'cancelado']],
    [3, ['whatsapp_no_entregado', 'whatsapp_no_leido', 'fallido', 'cancelado']],
    [4, ['no_contesto', 'ocupado', 'cuestionario_incompleto', 'fallido', 'cancelado']],
    [9, []],
  ])('type %i offers %j', (tipo, grupos) => {
    expect(gruposDeTipo(tipo)).toEqual(grupos);
  });

  it('no set holds a reached outcome but the undelivered or unread messages, and none holds pending', () => {
    const mensajes = ['sms_no_entregado', 'whatsapp_no_entregado', 'whatsapp_no_leido'];
    for (const g of GRUPOS_SEGUIMIENTO) {
      for (const r of RESULTADOS_GRUPO[g]) {
        expect(RESULTADOS).toContain(r);
        expect(alcanzado(r)).toBe(mensajes.includes(g));
        expect(r).not.toBe('leido');
        expect(['pendiente', 'en_curso']).not.toContain(r);
      }
    }
  });

  it("a WhatsApp drill: 'entregado, no leído' holds the delivered not read; a WhatsApp fallback read reached", () => {
    expect(msg(ETIQUETA_GRUPO.whatsapp_no_leido)).toBe(
      'WhatsApp entregado, no leído (sin aviso de lectura)',
    );
    const filas = [
      { estatus: 'entregado', alcance: 'leido', total: 4 },
      { estatus: 'entregado', alcance: null, total: '3' },
      { estatus: 'enviado', alcance: null, total: 2 },
      { estatus: 'fallido', alcance: null, total: 1 },
    ];
    expect(conteoGrupos(3, filas)).toEqual([
      { grupo: 'whatsapp_no_entregado', total: 2 },
      { grupo: 'whatsapp_no_leido', total: 3 },
      { grupo: 'fallido', total: 1 },
      { grupo: 'cancelado', total: 0 },
    ]);
    expect(resultadosDeGrupos(3, ['whatsapp_no_leido'])).toEqual(['entregado']);
    // SMS offers no 'no leído': its 'entregado' is in no set.
    expect(resultadosDeGrupos(1, ['whatsapp_no_leido'])).toEqual([]);
    expect(efectoRespaldo(3, 'leido')).toBe('entregado');
    expect(efectoRespaldo(3, 'entregado')).toBe('entregado');
    expect(gruposDePersona(2, 'ocupado', 3, 'leido')).toEqual([]);
    expect(gruposDeEjercicio(2, 3)).not.toContain('whatsapp_no_leido');
    // Offered, not checked from the start: they got the message.
    // (A poll's sets by answer are never checked from the start either, issue 46.2.)
    expect(GRUPOS_SEGUIMIENTO.filter((g) => !marcadoDeInicio(g) && !esGrupoRespuesta(g))).toEqual([
      'whatsapp_no_leido',
    ]);
  });

  it('labels: the catalogue text of each set', () => {
    expect(msg(ETIQUETA_GRUPO.ocupado)).toBe('Ocupado');
    expect(msg('grupoConTotal', { grupo: msg(ETIQUETA_GRUPO.ocupado), N: 37 })).toBe(
      'Ocupado (37)',
    );
  });

  it('counts per set from GROUP BY estatus, alcance rows (string counts, unknown states ignored)', () => {
    const filas = [
      { estatus: 'ocupado', alcance: null, total: '37' },
      { estatus: 'no_contesto', alcance: null, total: 5 },
      { estatus: 'contestado', alcance: 'respondio_parcial', total: 3 },
      { estatus: 'contestado', alcance: 'sin_respuesta', total: '2' },
      { estatus: 'respondido', alcance: 'respondio_todo', total: 10 },
      { estatus: 'fallido', alcance: null, total: 1 },
      { estatus: 'invalido', alcance: null, total: 1 },
      { estatus: 'raro', alcance: null, total: 99 },
    ];
    expect(conteoGrupos(4, filas)).toEqual([
      { grupo: 'no_contesto', total: 5 },
      { grupo: 'ocupado', total: 37 },
      { grupo: 'cuestionario_incompleto', total: 5 },
      { grupo: 'fallido', total: 2 },
      { grupo: 'cancelado', total: 0 },
    ]);
  });

  it('outcomes of a choice: deduplicated, sets foreign to the type ignored', () => {
    expect(
      resultadosDeGrupos(2, ['ocupado', 'no_contesto', 'ocupado', 'sms_no_entregado']),
    ).toEqual(['ocupado', 'no_contesto']);
    expect(resultadosDeGrupos(1, ['sms_no_entregado', 'fallido'])).toEqual([
      'enviado',
      'fallido',
      'invalido',
      'incierto',
    ]);
  });
});

describe("'Reenviar a no alcanzados' with a drill's fallback (issue 25.2)", () => {
  const SMS = 1;
  it('a call drill with an SMS fallback offers "SMS no entregado" in order; without one, not', () => {
    expect(gruposDeEjercicio(2, SMS)).toEqual([
      'no_contesto',
      'ocupado',
      'colgo',
      'sms_no_entregado',
      'fallido',
      'cancelado',
    ]);
    expect(gruposDeEjercicio(4, 3)).toContain('whatsapp_no_entregado');
    expect(gruposDeEjercicio(2, null)).toEqual(gruposDeTipo(2));
  });

  it('delivered: reached, in no set; not delivered: own set and "no entregado"; pending or cancelled: own set', () => {
    expect(efectoRespaldo(SMS, 'entregado')).toBe('entregado');
    for (const r of ['enviado', 'fallido', 'invalido'] as const)
      expect(efectoRespaldo(SMS, r)).toBe('no_entregado');
    for (const r of ['pendiente', 'en_curso', 'cancelado', null] as const)
      expect(efectoRespaldo(SMS, r)).toBeNull();
    expect(gruposDePersona(2, 'ocupado', SMS, 'entregado')).toEqual([]);
    expect(gruposDePersona(2, 'ocupado', SMS, 'fallido')).toEqual(['ocupado', 'sms_no_entregado']);
    expect(gruposDePersona(2, 'ocupado', SMS, 'pendiente')).toEqual(['ocupado']);
    expect(gruposDePersona(2, 'ocupado', null, null)).toEqual(['ocupado']);
    expect(gruposDePersona(2, 'escucho', SMS, null)).toEqual([]);
  });

  it('counts per set and per combination; a choice counts each person once', () => {
    const filas = [
      { estatus: 'ocupado', respaldo_estatus: 'entregado', total: 4 },
      { estatus: 'ocupado', respaldo_estatus: 'enviado', total: '2' },
      { estatus: 'no_contesto', respaldo_estatus: 'fallido', total: 1 },
      { estatus: 'ocupado', respaldo_estatus: 'cancelado', total: 3 },
      { estatus: 'contestado', alcance: 'escucho', respaldo_estatus: null, total: 9 },
    ];
    expect(conteoGrupos(2, filas, SMS)).toEqual([
      { grupo: 'no_contesto', total: 1 },
      { grupo: 'ocupado', total: 5 },
      { grupo: 'colgo', total: 0 },
      { grupo: 'sms_no_entregado', total: 3 },
      { grupo: 'fallido', total: 0 },
      { grupo: 'cancelado', total: 0 },
    ]);
    const celdas = celdasSeguimiento(2, filas, SMS);
    expect(totalElegido(celdas, ['ocupado', 'sms_no_entregado'])).toBe(6);
    expect(totalElegido(celdas, ['no_contesto', 'ocupado', 'sms_no_entregado'])).toBe(6);
    expect(totalElegido(celdas, ['sms_no_entregado'])).toBe(3);
  });

  it('the copy: own outcomes, the fallback outcomes that leave out and those that bring in', () => {
    const c = copiaSeguimiento(2, SMS, ['ocupado', 'sms_no_entregado']);
    expect(c.propios).toEqual(['ocupado']);
    expect(c.respaldo?.entregados).toContain('entregado');
    expect(c.respaldo?.entregados).not.toContain('enviado');
    expect(c.respaldo?.noEntregados).toEqual(
      expect.arrayContaining(['enviado', 'fallido', 'invalido']),
    );
    expect(copiaSeguimiento(2, SMS, ['ocupado']).respaldo?.noEntregados).toEqual([]);
    expect(copiaSeguimiento(2, null, ['ocupado', 'sms_no_entregado'])).toEqual({
      propios: ['ocupado'],
      respaldo: null,
    });
  });
});

describe("'Reenviar a no alcanzados' by a poll's answers (issue 46.2)", () => {
  const opciones = [
    { digito: 1, texto: 'Estoy a salvo' },
    { digito: 2, texto: 'Necesito ayuda' },
  ];
  const filas = [
    { estatus: 'entregado', digito: null, total: 3 },
    { estatus: 'entregado', digito: 1, total: 4 },
    { estatus: 'enviado', digito: 2, total: 2 },
    { estatus: 'enviado', digito: null, total: 1 },
    { estatus: 'fallido', digito: null, total: 5 },
  ];

  it("counts 'No respondieron' (reached, no answer) and each option, a person once", () => {
    expect(conteoGrupos(1, filas, null, opciones)).toEqual([
      { grupo: 'sms_no_entregado', total: 3 },
      { grupo: 'fallido', total: 5 },
      { grupo: 'cancelado', total: 0 },
      { grupo: 'no_respondieron', total: 4 },
      { grupo: 'respondieron_1', total: 4 },
      { grupo: 'respondieron_2', total: 2 },
    ]);
    const celdas = celdasSeguimiento(1, filas, null, opciones);
    // 'SMS no entregado' and 'Respondieron: 2' hold the same two people: counted once.
    expect(totalElegido(celdas, ['sms_no_entregado', 'respondieron_2'])).toBe(3);
    // Without a poll nothing changes.
    expect(conteoGrupos(1, filas).map((g) => g.grupo)).toEqual([
      'sms_no_entregado',
      'fallido',
      'cancelado',
    ]);
  });

  it('labels, and what the server copies', () => {
    expect(etiquetaGrupo('respondieron_2', opciones)).toBe('Respondieron: 2 - Necesito ayuda');
    expect(etiquetaGrupo('no_respondieron', opciones)).toBe('No respondieron');
    expect(marcadoDeInicio('respondieron_1')).toBe(false);
    expect(copiaSeguimiento(1, null, ['respondieron_2', 'no_respondieron'], opciones)).toEqual({
      respuestas: { sin: true, digitos: [2] },
      propios: [],
      respaldo: null,
    });
    // A digit the poll does not offer copies nobody.
    expect(copiaSeguimiento(1, null, ['respondieron_7'], opciones).respuestas).toEqual({
      sin: false,
      digitos: [],
    });
  });
});
