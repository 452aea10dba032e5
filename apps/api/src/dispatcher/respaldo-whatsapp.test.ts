import { describe, expect, it } from 'vitest';
import { msg } from '@pregon/contract/messages';
import { accionDePlantilla } from '@pregon/contract/rules/whatsapp';
import { SimuladorWhatsapp } from '@pregon/simulators/whatsapp';
import { MOTORES, pedir } from '../../testing/entorno.ts';
import { crearEquipo } from '../../testing/fabrica.ts';
import {
  entornoDeRespaldo,
  paroEnMedio,
  pausaEnMedio,
  unaVezTrasElUltimoIntento,
  type CanalDeRespaldo,
} from '../../testing/despacho-respaldo.ts';

// Issue 25.2, the WhatsApp fallback: a call drill whose fallback is an approved WhatsApp template,
// against the AMI simulator (callees scripted by their last digit) and the WhatsApp Cloud API
// simulator (the witness of every message Meta accepted; its status webhooks come back signed to
// the api), on both engines. The template goes once to exactly those the drill did not reach; a
// pause or a stop in the middle of the fallbacks sends no more (a stop counts none that did not
// leave). What it shares with the SMS fallback is in testing/despacho-respaldo.ts.

const PLANTILLA = {
  plantilla: 'aviso_simulacro',
  idioma: 'es_MX',
  parametros: ['la Zona Norte', 'la salida de emergencia'],
};
const TEXTO =
  'Simulacro en la Zona Norte: diríjase a la salida de emergencia y espere instrucciones.';

describe.each(MOTORES)(
  'respaldo por WhatsApp de una llamada (%s)',
  { timeout: 90_000 },
  (motor) => {
    const wa = new SimuladorWhatsapp({
      token: 'tok',
      phoneNumberId: '777000',
      appSecret: 'secreto-app',
      retrasoReciboMs: 30,
    });
    /** The messages Meta accepted are the witness. */
    const whatsapp: CanalDeRespaldo = {
      canal: 'whatsapp',
      etiqueta: 'WhatsApp',
      tipo: 3,
      accion: accionDePlantilla(PLANTILLA),
      texto: TEXTO,
      iniciar: async (api) => {
        await wa.iniciar();
        wa.webhookUrl = `${api.url}/webhooks/whatsapp/`;
      },
      detener: () => wa.detener(),
      equipo: (api, tasa) =>
        crearEquipo(api.ctx.db, {
          protocolo: 'whatsapp',
          url: wa.url,
          tasa,
          puertos: 1,
          credenciales: { token: 'tok', phone_number_id: '777000', app_secret: 'secreto-app' },
        }),
      mensajesA: (t) => wa.registro.filter((m) => m.telefono.endsWith(t)).length,
      registro: () => wa.registro,
    };
    const p = entornoDeRespaldo(motor, whatsapp, { prefijo: 'pregon-respaldo-wa-' });

    it('exactly the unreached get the template once, after their last attempt; dashboard, list, report and history say WhatsApp', async () => {
      const { api, token } = p;
      const telefonos = Array.from(
        { length: 20 },
        (_, i) => `56${String(2000 + i).padStart(8, '0')}`,
      );
      const { id, companero, respaldos, tablero, fila } = await unaVezTrasElUltimoIntento(
        p,
        telefonos,
      );
      for (const r of respaldos) {
        expect(r.recibida, r.telefono).toBe(1);
        expect(r.id_gateway).toMatch(/^wamid\./);
      }
      // The simulator sends no 'read' status: none read (issue 25.1).
      expect(msg('tableroRespaldoWhatsapp', tablero)).toBe(
        'Respaldo por WhatsApp: 6 enviados, 6 entregados, 0 leídos',
      );
      expect([fila.respaldo_canal, fila.respaldo_texto, fila.respaldo_plantilla]).toEqual([
        'whatsapp',
        null,
        PLANTILLA,
      ]);

      // A phone's history shows the fallback under its drill's name, as the WhatsApp fallback.
      const uno = respaldos[0]!;
      const { id_telefono } = await api.ctx.db.kysely
        .insertInto('telefonos')
        .values({ telefono: uno.telefono, nombre: null, id_estado: 1, creado: Date.now() })
        .returning('id_telefono')
        .executeTakeFirstOrThrow();
      await api.ctx.db.kysely
        .updateTable('ejercicio_detalle')
        .set({ id_telefono })
        .where('id_ejercicio', 'in', [id, companero])
        .where('telefono', '=', uno.telefono)
        .execute();
      const h = await pedir(api.url, 'GET', `/telefono/${id_telefono}/historial/`, { token });
      expect(h.status, JSON.stringify(h.body)).toBe(200);
      expect(
        h.body.data.map((x: { id_ejercicio: number; tipo_ejercicio: string }) => [
          x.id_ejercicio,
          x.tipo_ejercicio,
        ]),
      ).toEqual([
        [id, 'WhatsApp de respaldo'],
        [id, 'LLAMADA'],
      ]);
    });

    it('pause in the middle of the fallbacks: nothing more leaves while paused; resumed, each once', async () => {
      await pausaEnMedio(p, 6000);
    });

    it('stop in the middle of the fallbacks: no more leave; what did not leave is cancelled, uncounted', async () => {
      await paroEnMedio(p, 4000);
    });
  },
);
