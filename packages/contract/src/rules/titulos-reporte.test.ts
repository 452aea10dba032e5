import { describe, expect, it } from 'vitest';
import { CAMPOS_OMITIDOS_HOJA, tituloColumnaReporte } from './titulos-reporte.ts';

describe('tituloColumnaReporte (issue 26.7)', () => {
  const preguntas = new Map([[1, '¿Escuchó la alerta?']]);
  it.each([
    ['telefono', 'Teléfono'],
    ['fecha_envio', 'Fecha de envío'],
    ['hora_envio', 'Hora de envío'],
    ['n', 'N.º'],
    ['resultado', 'Resultado'],
    ['reactivo_texto_1', '1. ¿Escuchó la alerta?'],
    ['reactivo_texto_2', '2. Pregunta'],
    ['respaldo_canal', 'Canal del respaldo'],
    ['respaldo_resultado', 'Resultado del respaldo'],
    ['respaldo_fecha', 'Fecha del respaldo'],
    ['respaldo_hora', 'Hora del respaldo'],
    ['otro_campo', 'otro_campo'],
  ])('%s → %s', (campo, titulo) => expect(tituloColumnaReporte(campo, preguntas)).toBe(titulo));

  it('the status code is left out: resultado says it in words', () => {
    expect(CAMPOS_OMITIDOS_HOJA.has('estatus')).toBe(true);
  });
});
