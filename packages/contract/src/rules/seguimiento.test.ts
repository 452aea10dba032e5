import { describe, expect, it } from 'vitest';
import { msg } from '../messages.ts';
import {
  conteoGrupos,
  ETIQUETA_GRUPO,
  GRUPOS_SEGUIMIENTO,
  gruposDeTipo,
  RESULTADOS_GRUPO,
  resultadosDeGrupos,
} from './seguimiento.ts';
import { alcanzado, RESULTADOS } from './alcance.ts';

describe("'Reenviar a no alcanzados' outcome sets (issue 25.1)", () => {
  it.each([
    [1, ['sms_no_entregado', 'fallido', 'cancelado']],
    [2, ['no_contesto', 'ocupado', 'colgo', 'fallido', 'cancelado']],
    [3, ['whatsapp_no_entregado', 'fallido', 'cancelado']],
    [4, ['no_contesto', 'ocupado', 'cuestionario_incompleto', 'fallido', 'cancelado']],
    [9, []],
  ])('type %i offers %j', (tipo, grupos) => {
    expect(gruposDeTipo(tipo)).toEqual(grupos);
  });

  it('no set holds a reached outcome but the undelivered messages, and none holds pending', () => {
    for (const g of GRUPOS_SEGUIMIENTO) {
      for (const r of RESULTADOS_GRUPO[g]) {
        expect(RESULTADOS).toContain(r);
        expect(alcanzado(r)).toBe(g === 'sms_no_entregado' || g === 'whatsapp_no_entregado');
        expect(['pendiente', 'en_curso']).not.toContain(r);
      }
    }
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
