import { describe, expect, it } from 'vitest';
import { TIPO_CUESTIONARIO, TIPO_LLAMADA, TIPO_SMS, TIPO_WHATSAPP } from '@pregon/contract/constants';
import { CrearEjercicioSchema } from '@pregon/contract/api/ejercicios';
import type { EncuestaLeida } from '@pregon/contract/api/respuestas';
import { encuestaDeEjercicio, type EncuestaFormulario } from './encuesta-formulario.ts';
import { encuestaParaEnviar, opcionNueva, textoEnviado, validarEncuesta } from './encuesta-reglas.ts';

// The create dialog's poll rules (issue 46.2): what it sends, the contract's messages by field
// (the api's own), the whole SMS text the counter counts, and a saved poll back as form values.

const SALVO_AYUDA: EncuestaFormulario = {
  activa: true,
  anexar_opciones: true,
  opciones: [
    { digito: 1, texto: 'Estoy a salvo', atencion: false, acuse: '' },
    { digito: 2, texto: 'Necesito ayuda', atencion: true, acuse: 'Le llamaremos' },
  ],
};

describe('encuesta del diálogo', () => {
  it('envía la encuesta de un SMS y la del WhatsApp sin anexar; nada para llamadas', () => {
    expect(encuestaParaEnviar(SALVO_AYUDA, TIPO_SMS)).toEqual({
      encuesta: {
        opciones: [
          { digito: 1, texto: 'Estoy a salvo', atencion: 0, acuse: '' },
          { digito: 2, texto: 'Necesito ayuda', atencion: 1, acuse: 'Le llamaremos' },
        ],
        anexar_opciones: 1,
      },
    });
    expect(encuestaParaEnviar(SALVO_AYUDA, TIPO_WHATSAPP).encuesta).toMatchObject({
      anexar_opciones: 0,
    });
    // Switched off: '' removes a saved poll on edit.
    expect(encuestaParaEnviar({ ...SALVO_AYUDA, activa: false }, TIPO_SMS)).toEqual({
      encuesta: '',
    });
    expect(encuestaParaEnviar(undefined, TIPO_SMS)).toEqual({ encuesta: '' });
    expect(encuestaParaEnviar(SALVO_AYUDA, TIPO_LLAMADA)).toEqual({});
    expect(encuestaParaEnviar(SALVO_AYUDA, TIPO_CUESTIONARIO)).toEqual({});
  });

  it('lo que envía pasa el esquema de creación del api', () => {
    const r = CrearEjercicioSchema.safeParse({
      titulo: 'Encuesta',
      tipo_ejercicio: TIPO_SMS,
      fecha_ini: '2026-12-01',
      hora_ini: '10:30:00',
      equipo: 1,
      accion: 'Simulacro: ¿cómo está?',
      estado: 1,
      categorias: '1',
      ...encuestaParaEnviar(SALVO_AYUDA, TIPO_SMS),
    });
    expect(r.error?.issues).toBeUndefined();
    expect(r.data?.encuesta?.opciones[1]).toEqual({
      digito: 2,
      texto: 'Necesito ayuda',
      atencion: true,
      acuse: 'Le llamaremos',
    });
  });

  it('valida con los mensajes del contrato, por campo', () => {
    expect(validarEncuesta(SALVO_AYUDA, TIPO_SMS)).toEqual({});
    expect(validarEncuesta({ ...SALVO_AYUDA, activa: false }, TIPO_SMS)).toEqual({});
    const vacia = {
      ...SALVO_AYUDA,
      opciones: [SALVO_AYUDA.opciones![0]!, { digito: 1, texto: ' ' }],
    };
    expect(validarEncuesta(vacia, TIPO_SMS)).toEqual({
      'opciones.1.texto': 'El campo texto es obligatorio',
      'opciones.1.digito':
        'El dígito 1 ya está asignado a otra opción de la encuesta: elija otro dígito',
    });
    expect(
      validarEncuesta({ ...SALVO_AYUDA, opciones: [SALVO_AYUDA.opciones![0]!] }, TIPO_SMS),
    ).toEqual({ opciones: 'La encuesta debe tener de 2 a 9 opciones (tiene 1)' });
    expect(
      validarEncuesta(
        { ...SALVO_AYUDA, opciones: [...SALVO_AYUDA.opciones!, { digito: 3, texto: 'Baja' }] },
        TIPO_SMS,
      ),
    ).toEqual({
      'opciones.2.texto':
        'La opción 3 no puede ser "Baja": esa palabra da de baja o de alta el teléfono. Escriba otro texto',
    });
  });

  it('el texto enviado suma la línea de opciones solo si se anexa a un SMS', () => {
    const instruccion = 'Responda 1 si está a salvo, 2 si necesita ayuda';
    expect(textoEnviado('¿Cómo está?', SALVO_AYUDA, TIPO_SMS)).toEqual({
      texto: `¿Cómo está?\n${instruccion}`,
      anexo: instruccion,
    });
    const sinAnexar = { ...SALVO_AYUDA, anexar_opciones: false };
    expect(textoEnviado('¿Cómo está?', sinAnexar, TIPO_SMS)).toEqual({
      texto: '¿Cómo está?',
      anexo: null,
    });
    expect(textoEnviado('Hola', SALVO_AYUDA, TIPO_WHATSAPP).anexo).toBeNull();
    // Options still being written are left out of the line until they have digit and text.
    const aMedias = {
      ...SALVO_AYUDA,
      opciones: [SALVO_AYUDA.opciones![0]!, { digito: 2, texto: '' }],
    };
    expect(textoEnviado('Hola', aMedias, TIPO_SMS).anexo).toBe('Responda 1 si está a salvo');
  });

  it('una opción nueva toma el primer dígito libre', () => {
    expect(opcionNueva([]).digito).toBe(1);
    expect(opcionNueva([{ digito: 1 }, { digito: 3 }]).digito).toBe(2);
    const nueve = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((digito) => ({ digito }));
    expect(opcionNueva(nueve).digito).toBe(0);
  });

  it('una encuesta guardada vuelve como valores del diálogo', () => {
    const leida: EncuestaLeida = {
      pregunta: '¿Cómo está?',
      anexar_opciones: true,
      opciones: [
        { digito: 1, texto: 'Estoy a salvo', atencion: false },
        { digito: 2, texto: 'Necesito ayuda', atencion: true, acuse: 'Le llamaremos' },
      ],
    };
    expect(encuestaDeEjercicio(leida)).toEqual(SALVO_AYUDA);
    expect(encuestaDeEjercicio(null)).toBeUndefined();
  });
});
