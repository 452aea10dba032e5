import { describe, expect, it, vi } from 'vitest';
import type { CuestionarioSlots } from '@pregon/contract/rules/questionnaire';
import type { ClientePbx } from '../../../lib/pbx-client.ts';

// Issue 23.1: the agent stores each upload as `{nombre}-{hash}`; the questionnaire must name the
// stored files, so each new audio is uploaded first and POST /quiz/ carries the returned names.

const llamadas: string[] = [];
let slots: CuestionarioSlots | undefined;
vi.mock('./cuestionario.ts', () => ({
  guardarPreguntasApi: async (s: CuestionarioSlots) => {
    llamadas.push('POST /quiz/');
    slots = s;
    return { id_cuestionario: 9 };
  },
  agregarRespuestaApi: async () => void llamadas.push('POST /quiz/respuesta/'),
  llenarDigitosApi: async () => void llamadas.push('POST /quiz/digitos/fill/'),
}));
vi.mock('../../ejercicios/api/telefonia.ts', () => ({
  obtenerArchivoQuiz: async () => ({ id_quiz: 9, salida: 'x', firma: 'f' }),
}));

const { guardarCuestionarioCompleto } = await import('./guardar-cuestionario.ts');

const respuestas = [{ respuesta: 'Sí', digito: 1 }];
const pbxDePrueba = (falla = false) =>
  ({
    subirAudio: async (_archivo: Blob, nombre: string) => {
      llamadas.push(`subir ${nombre}`);
      if (falla) throw new Error('Error de red');
      return {
        status: 200,
        filename: `${nombre}-0123456789abcdef`,
        sha256: '0'.repeat(64),
        duracion_s: 1,
      };
    },
    escribirQuiz: async () => void llamadas.push('PUT /quizzes/extensions/9/'),
  }) as unknown as ClientePbx;
const avisos = () => {
  const errores: string[] = [];
  return { errores, alPaso: () => undefined, alError: (t: string) => void errores.push(t) };
};

describe('guardarCuestionarioCompleto', () => {
  it('sube primero los audios nuevos y guarda los nombres que devuelve el agente', async () => {
    llamadas.length = 0;
    const a = avisos();
    const ok = await guardarCuestionarioCompleto(
      pbxDePrueba(),
      5,
      [
        {
          texto: '¿Escuchó?',
          audio: 'q1 alerta.gsm',
          archivo: new File([new Uint8Array(33)], 'q1 alerta.gsm'),
          respuestas,
        },
        // Unchanged: keeps its stored name, not uploaded again.
        { texto: '¿Salió?', audio: 'q2-fedcba9876543210.gsm', respuestas },
      ],
      { nuevo: true },
      a,
    );
    expect(a.errores).toEqual([]);
    expect(ok).toBe(true);
    expect(llamadas).toEqual([
      'subir q1_alerta',
      'POST /quiz/',
      'POST /quiz/respuesta/',
      'POST /quiz/respuesta/',
      'POST /quiz/digitos/fill/',
      'PUT /quizzes/extensions/9/',
    ]);
    expect(slots).toMatchObject({
      file_01: 'q1_alerta-0123456789abcdef',
      file_02: 'q2-fedcba9876543210',
      file_03: '',
    });
  });

  it('una subida fallida no guarda un cuestionario que nombre un audio ausente', async () => {
    llamadas.length = 0;
    const a = avisos();
    const ok = await guardarCuestionarioCompleto(
      pbxDePrueba(true),
      5,
      [{ texto: '¿Escuchó?', audio: 'q1.gsm', archivo: new File([], 'q1.gsm'), respuestas }],
      { nuevo: false },
      a,
    );
    expect(ok).toBe(false);
    expect(llamadas).toEqual(['subir q1']);
    expect(a.errores).toHaveLength(1);
    expect(a.errores[0]).toMatch(/^ERROR al subir audio de la pregunta 1: /);
  });
});
