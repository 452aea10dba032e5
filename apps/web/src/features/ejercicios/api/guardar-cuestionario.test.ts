import { describe, expect, it, vi } from 'vitest';
import type { CuestionarioCompleto } from '@pregon/contract/api/quiz';
import { ErrorApi } from '../../../lib/api-client.ts';
import type { ClientePbx } from '../../../lib/pbx-client.ts';

// Issue 23.1: the agent stores each upload as `{nombre}-{hash}`; the questionnaire must name the
// stored files, so each new audio is uploaded first. Issue 26.2: then one PUT /quiz/completo/
// carries every question, answer and stored name; the server writes the plan to the agent (or
// hands it back to be written when it does not know the agent).

const llamadas: string[] = [];
let enviado: CuestionarioCompleto | undefined;
let escrito = true;
vi.mock('./cuestionario.ts', () => ({
  guardarCompletoApi: async (c: CuestionarioCompleto) => {
    llamadas.push('PUT /quiz/completo/');
    enviado = c;
    return { plan: { id_quiz: 9, contenido: 'x', firma: 'f', escrito } };
  },
}));
vi.mock('../../../lib/pbx-client.ts', () => ({
  obtenerConfig: async () => ({ pbx: { base: 'http://pbx.ejemplo:8090', software: 'asterisk' } }),
}));

const { guardarCuestionarioCompleto } = await import('./guardar-cuestionario.ts');

const respuestas = [{ respuesta: ' Sí ', digito: 1 }];
const pbxDePrueba = (falla?: Error) =>
  ({
    subirAudio: async (_archivo: Blob, nombre: string) => {
      llamadas.push(`subir ${nombre}`);
      if (falla) throw falla;
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
  it('sube primero los audios nuevos y guarda todo en una sola llamada con los nombres del agente', async () => {
    llamadas.length = 0;
    escrito = true;
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
        { texto: ' ¿Salió? ', audio: 'q2-fedcba9876543210.gsm', respuestas },
      ],
      { nuevo: true },
      a,
    );
    expect(a.errores).toEqual([]);
    expect(ok).toBe(true);
    expect(llamadas).toEqual(['subir q1_alerta', 'PUT /quiz/completo/']);
    expect(enviado).toEqual({
      id_ejercicio: 5,
      preguntas: [
        {
          reactivo: '¿Escuchó?',
          file: 'q1_alerta-0123456789abcdef',
          respuestas: [{ respuesta: 'Sí', digito: 1 }],
        },
        {
          reactivo: '¿Salió?',
          file: 'q2-fedcba9876543210',
          respuestas: [{ respuesta: 'Sí', digito: 1 }],
        },
      ],
    });
  });

  it('sin PBX_BASE en el servidor escribe el plan firmado que devuelve', async () => {
    llamadas.length = 0;
    escrito = false;
    const ok = await guardarCuestionarioCompleto(
      pbxDePrueba(),
      5,
      [{ texto: '¿Escuchó?', audio: 'q2-fedcba9876543210.gsm', respuestas }],
      {},
      avisos(),
    );
    expect(ok).toBe(true);
    expect(llamadas).toEqual(['PUT /quiz/completo/', 'PUT /quizzes/extensions/9/']);
  });

  it('con el agente caído no guarda nada y nombra al agente y su dirección', async () => {
    llamadas.length = 0;
    const a = avisos();
    const ok = await guardarCuestionarioCompleto(
      pbxDePrueba(new ErrorApi('Error de red: no se obtuvo respuesta del servidor', 0, null)),
      5,
      [{ texto: '¿Escuchó?', audio: 'q1.gsm', archivo: new File([], 'q1.gsm'), respuestas }],
      { nuevo: false },
      a,
    );
    expect(ok).toBe(false);
    expect(llamadas).toEqual(['subir q1']);
    expect(a.errores).toEqual([
      'ERROR al subir audio de la pregunta 1: El agente de telefonía no responde en http://pbx.ejemplo:8090: no se guardó nada. Compruebe que esté en marcha e intente de nuevo',
    ]);
  });
});
