import { describe, expect, it } from 'vitest';
import type { HistorialRespuesta } from '@pregon/contract/api/telefonos';
import { ordenarLineaDeTiempo, type Envio } from './linea-de-tiempo.ts';

// A phone's history as one timeline: sends and replies by instant, newest first.

const envio = (id: number, enviado_en: number | null): Envio => ({
  id_ejercicio: id,
  ejercicio: `Ejercicio ${id}`,
  tipo_ejercicio: 'SMS',
  fecha_envio: null,
  hora_envio: null,
  estatus: 'entregado',
  resultado: 'Entregado',
  intentos: 1,
  respuestas: '',
  enviado_en,
});
const respuesta = (id: number, fecha: number): HistorialRespuesta => ({
  id_respuesta: id,
  fecha,
  canal: 'smpp',
  canal_etiqueta: 'SMS',
  texto: String(id),
  tipo: 'no_reconocida',
  digito: null,
  etiqueta: 'Respuesta no reconocida',
  id_ejercicio: null,
  ejercicio: null,
});

describe('ordenarLineaDeTiempo', () => {
  it.each([
    ['only sends', [envio(2, 200), envio(1, 100)], [], ['e-2-0', 'e-1-1']],
    [
      'a reply between two sends',
      [envio(2, 300), envio(1, 100)],
      [respuesta(9, 200)],
      ['e-2-0', 'r-9', 'e-1-1'],
    ],
    [
      'replies after the newest send lead',
      [envio(1, 100)],
      [respuesta(8, 150), respuesta(9, 400)],
      ['r-9', 'r-8', 'e-1-0'],
    ],
    [
      'a send not sent yet leads',
      [envio(3, null), envio(2, 100)],
      [respuesta(9, 500)],
      ['e-3-0', 'r-9', 'e-2-1'],
    ],
    [
      'at the same instant the reply goes above the send',
      [envio(1, 100)],
      [respuesta(9, 100)],
      ['r-9', 'e-1-0'],
    ],
    [
      'replies alone (a phone never sent to)',
      [],
      [respuesta(1, 1), respuesta(2, 2)],
      ['r-2', 'r-1'],
    ],
  ] as const)('%s', (_, envios, respuestas, claves) => {
    expect(ordenarLineaDeTiempo([...envios], [...respuestas]).map((e) => e.clave)).toEqual(claves);
  });
});
