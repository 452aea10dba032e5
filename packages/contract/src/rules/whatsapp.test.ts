import { describe, expect, it } from 'vitest';
import { msg } from '../messages.ts';
import {
  CODIGOS_WHATSAPP,
  VERSION_API_WHATSAPP,
  accionDePlantilla,
  accionVisible,
  claseErrorWhatsapp,
  leerAccionWhatsapp,
  motivoEstadoFallido,
  parametrosDeCuerpo,
  textoDePlantilla,
  textoErrorMeta,
} from './whatsapp.ts';

describe('acción de WhatsApp', () => {
  it('una plantilla guardada como JSON se lee de vuelta', () => {
    const p = {
      plantilla: 'aviso_simulacro',
      idioma: 'es_MX',
      parametros: ['Zona Norte', '10:00'],
    };
    expect(leerAccionWhatsapp(accionDePlantilla(p))).toEqual({ tipo: 'plantilla', ...p });
  });

  it.each([
    'Simulacro: diríjase a la zona segura',
    '{no es json',
    '{"plantilla": ""}',
    '{"otra": 1}',
  ])('texto libre: %s', (t) => {
    expect(leerAccionWhatsapp(t)).toEqual({ tipo: 'texto', texto: t });
  });

  it('cuerpo con parámetros: cuenta y rellena', () => {
    const c = 'Simulacro en {{1}} a las {{2}}. Acuda a {{1}}.';
    expect(parametrosDeCuerpo(c)).toBe(2);
    expect(parametrosDeCuerpo('Sin parámetros')).toBe(0);
    expect(textoDePlantilla(c, ['la Zona Norte', '10:00'])).toBe(
      'Simulacro en la Zona Norte a las 10:00. Acuda a la Zona Norte.',
    );
    expect(textoDePlantilla(c, ['A'])).toBe('Simulacro en A a las {{2}}. Acuda a A.');
  });

  it('en la lista: la plantilla por nombre, idioma y parámetros; el texto tal cual', () => {
    const p = { plantilla: 'aviso_simulacro', idioma: 'es_MX', parametros: ['Norte', '10:00'] };
    expect(accionVisible(accionDePlantilla(p))).toBe(
      'Plantilla aviso_simulacro (es_MX): Norte, 10:00',
    );
    expect(accionVisible(accionDePlantilla({ ...p, parametros: [] }))).toBe(
      'Plantilla aviso_simulacro (es_MX)',
    );
    expect(accionVisible('Hola')).toBe('Hola');
  });
});

describe('errores de la Cloud API de Meta', () => {
  it.each([
    [100, undefined, 'solicitud'],
    [131009, undefined, 'solicitud'],
    [131008, undefined, 'solicitud'],
    [100, 33, 'telefonoId'],
    [33, undefined, 'telefonoId'],
    [133010, undefined, 'telefonoId'],
    [130429, undefined, 'limite'],
    [131056, undefined, 'limite'],
    [80007, undefined, 'limite'],
    [4, undefined, 'limite'],
    [131048, undefined, 'limite'],
    [131047, undefined, 'fueraDeVentana'],
    [131026, undefined, 'noEntregable'],
    [190, undefined, 'credenciales'],
    [0, undefined, 'credenciales'],
    [10, undefined, 'credenciales'],
    [200, undefined, 'credenciales'],
    [299, undefined, 'credenciales'],
    [368, undefined, 'cuenta'],
    [131031, undefined, 'cuenta'],
    [131000, undefined, 'transitorio'],
    [2, undefined, 'transitorio'],
    [132001, undefined, 'plantilla'],
    [132015, undefined, 'plantilla'],
    [131049, undefined, 'destinatario'],
    [999999, undefined, 'otro'],
  ] as const)('%i (subcódigo %s) → %s', (codigo, sub, clase) => {
    expect(claseErrorWhatsapp(codigo, sub)).toBe(clase);
  });

  it('ningún código está en dos clases', () => {
    const todos = Object.values(CODIGOS_WHATSAPP).flat();
    expect(new Set(todos).size).toBe(todos.length);
  });

  it('texto de Meta: código, título (sin el prefijo (#código)) y detalles', () => {
    expect(
      textoErrorMeta({
        code: 131009,
        message: '(#131009) Parameter value is not valid',
        error_data: { details: 'Invalid template language' },
      }),
    ).toBe('131009: Parameter value is not valid — Invalid template language');
    expect(
      textoErrorMeta({
        code: 131026,
        title: 'Message undeliverable',
        message: 'Message undeliverable',
      }),
    ).toBe('131026: Message undeliverable');
    expect(textoErrorMeta({})).toBe('?: sin descripción');
  });

  it('motivo de un estado fallido: en español, con el código y el título de Meta', () => {
    expect(motivoEstadoFallido({ code: 131026, title: 'Message undeliverable' })).toBe(
      `${msg('whatsappNoEntregable')} (131026: Message undeliverable)`,
    );
    expect(motivoEstadoFallido({ code: 131047, title: 'Re-engagement message' })).toBe(
      `${msg('whatsappFueraDeVentana')} (131047: Re-engagement message)`,
    );
    expect(motivoEstadoFallido({ code: 131049, title: 'Healthy ecosystem engagement' })).toBe(
      `${msg('whatsappEntregaFallida')} (131049: Healthy ecosystem engagement)`,
    );
    expect(motivoEstadoFallido(undefined)).toBe(msg('whatsappEntregaFallida'));
    const largo = motivoEstadoFallido({ code: 1, title: 'x'.repeat(1000) });
    expect(largo).toHaveLength(500);
  });

  it('una sola versión de la Graph API, vigente', () => {
    expect(VERSION_API_WHATSAPP).toMatch(/^v\d+\.0$/);
    expect(Number(VERSION_API_WHATSAPP.slice(1))).toBeGreaterThanOrEqual(23);
  });
});
