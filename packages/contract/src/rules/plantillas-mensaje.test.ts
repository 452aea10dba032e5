import { describe, expect, it } from 'vitest';
import {
  llenarPlantilla,
  marcadoresDe,
  marcadoresDesconocidos,
  partesPlantilla,
  textoSmsGuardado,
  canalesDeVersion,
  equiposCorreccion,
  versionesUsables,
} from './plantillas-mensaje.ts';
import { analizarSms } from './sms.ts';

// Issue 47.3: placeholders of prepared messages.
describe('llenarPlantilla', () => {
  const valores = {
    estado: 'Oaxaca',
    municipio: 'Juchitán',
    hora: '11:00',
    refugio: 'Escuela Benito Juárez',
  };
  it.each([
    ['Sismo en {estado}', valores, 'Sismo en Oaxaca'],
    [
      '{municipio}, {estado}: acuda a {refugio} antes de las {hora}',
      valores,
      'Juchitán, Oaxaca: acuda a Escuela Benito Juárez antes de las 11:00',
    ],
    ['{estado} y otra vez {estado}', valores, 'Oaxaca y otra vez Oaxaca'],
    ['Falta {refugio}', { estado: 'Oaxaca' }, 'Falta {refugio}'],
    ['En blanco {hora}', { hora: '   ' }, 'En blanco {hora}'],
    ['Desconocido {lugar} queda', valores, 'Desconocido {lugar} queda'],
    ['Sin marcadores', valores, 'Sin marcadores'],
    ['{ estado } con espacios no es marcador', valores, '{ estado } con espacios no es marcador'],
    ['Valor con llaves {estado}', { estado: '{hora}' }, 'Valor con llaves {hora}'],
    ['Prototipo {constructor} {toString}', valores, 'Prototipo {constructor} {toString}'],
  ])('%s', (texto, v, esperado) => {
    expect(llenarPlantilla(texto, v)).toBe(esperado);
  });
});

describe('marcadores', () => {
  it.each([
    ['Sismo en {estado} a las {hora}', [], ['estado', 'hora']],
    ['{lugar} y {estado} y {lugar}', ['{lugar}'], ['lugar', 'estado']],
    ['{almacén} {Estado}', ['{almacén}', '{Estado}'], ['almacén', 'Estado']],
    ['sin nada {} ni { x }', [], []],
  ])('%s', (texto, desconocidos, todos) => {
    expect(marcadoresDesconocidos(texto)).toEqual(desconocidos);
    expect(marcadoresDe(texto)).toEqual(todos);
  });
});

describe('partes del texto con la marca del simulacro', () => {
  it('un simulacro cuenta la marca; la plantilla se guarda sin ella', () => {
    const texto = 'A'.repeat(150);
    expect(partesPlantilla(texto, 'SIMULACRO: ', false).partes).toBe(1);
    expect(partesPlantilla(texto, 'SIMULACRO: ', true).partes).toBe(2);
    expect(partesPlantilla(texto, 'SIMULACRO: ', true)).toEqual(analizarSms(`SIMULACRO: ${texto}`));
    expect(textoSmsGuardado('SIMULACRO: Sismo en {estado}', 'SIMULACRO: ')).toBe(
      'Sismo en {estado}',
    );
    expect(partesPlantilla('SIMULACRO: hola', 'SIMULACRO: ', true).textos).toEqual([
      'SIMULACRO: hola',
    ]);
  });
});

describe('canalesDeVersion y versionesUsables (la pantalla Plantillas y el diálogo)', () => {
  const vacia = { texto_sms: '', whatsapp_plantilla: '', audio: '', id_cuestionario: null };
  it.each([
    [{ ...vacia, texto_sms: 'Sismo' }, ['sms']],
    [{ ...vacia, whatsapp_plantilla: 'alerta' }, ['whatsapp']],
    [{ ...vacia, audio: 'sismo' }, ['llamada']],
    [{ ...vacia, id_cuestionario: 3 }, ['cuestionario']],
    [
      { texto_sms: 'a', whatsapp_plantilla: 'b', audio: 'c', id_cuestionario: 1 },
      ['sms', 'whatsapp', 'llamada', 'cuestionario'],
    ],
    [{ ...vacia, texto_sms: '   ' }, []],
  ] as const)('%o → %o', (v, canales) => {
    expect(canalesDeVersion(v)).toEqual(canales);
  });
  it('una alerta real solo ofrece versiones aprobadas; un simulacro, todas', () => {
    const vs = [
      { version: 3, aprobada: null },
      { version: 2, aprobada: 5 },
      { version: 1, aprobada: null },
    ];
    expect(versionesUsables(vs, true).map((v) => v.version)).toEqual([2]);
    expect(versionesUsables(vs, false).map((v) => v.version)).toEqual([3, 2, 1]);
  });
});

describe('equiposCorreccion (el diálogo y la api)', () => {
  const equipos = [
    { id_equipo: 1, protocolo: 'asterisk' },
    { id_equipo: 2, protocolo: 'smpp' },
    { id_equipo: 3, protocolo: 'whatsapp' },
    { id_equipo: 4, protocolo: 'android' },
    { id_equipo: 5, protocolo: 'whatsapp' },
  ];
  const ambas = { texto_sms: 'a', whatsapp_plantilla: 'b', audio: '' };
  const ids = (r: ReturnType<typeof equiposCorreccion>) => ({
    opciones: r.opciones.map((e) => e.id_equipo),
    defecto: r.defecto?.id_equipo,
  });
  it('el equipo del original; si no, el primero de su canal; una llamada sin audio, por SMS', () => {
    expect(ids(equiposCorreccion(equipos, ambas, { id_equipo: 5, protocolo: 'whatsapp' }))).toEqual(
      { opciones: [2, 3, 4, 5], defecto: 5 },
    );
    expect(ids(equiposCorreccion(equipos, ambas, { id_equipo: 9, protocolo: 'whatsapp' }))).toEqual(
      { opciones: [2, 3, 4, 5], defecto: 3 },
    );
    expect(ids(equiposCorreccion(equipos, ambas, { id_equipo: 1, protocolo: 'asterisk' }))).toEqual(
      { opciones: [2, 3, 4, 5], defecto: 2 },
    );
  });
  it('solo los canales con contenido en la versión', () => {
    const soloWa = { texto_sms: ' ', whatsapp_plantilla: 'b', audio: '' };
    expect(ids(equiposCorreccion(equipos, soloWa, { id_equipo: 2, protocolo: 'smpp' }))).toEqual({
      opciones: [3, 5],
      defecto: 3,
    });
    expect(
      ids(
        equiposCorreccion(
          equipos,
          { texto_sms: '', whatsapp_plantilla: '', audio: '' },
          {
            id_equipo: 2,
            protocolo: 'smpp',
          },
        ),
      ),
    ).toEqual({ opciones: [], defecto: undefined });
  });
  it('una versión con audio de llamada ofrece los equipos de llamadas; una llamada se corrige por llamada', () => {
    const todas = { texto_sms: 'a', whatsapp_plantilla: 'b', audio: 'sismo-1a2b' };
    expect(ids(equiposCorreccion(equipos, todas, { id_equipo: 1, protocolo: 'asterisk' }))).toEqual(
      { opciones: [1, 2, 3, 4, 5], defecto: 1 },
    );
    expect(
      ids(
        equiposCorreccion(
          equipos,
          { ...todas, texto_sms: '', whatsapp_plantilla: '' },
          {
            id_equipo: 2,
            protocolo: 'smpp',
          },
        ),
      ),
    ).toEqual({ opciones: [1], defecto: 1 });
  });
});
