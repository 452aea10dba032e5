import { describe, expect, it } from 'vitest';
import {
  accionDePlantilla,
  accionVisible,
  leerAccionWhatsapp,
  parametrosDeCuerpo,
  textoDePlantilla,
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
