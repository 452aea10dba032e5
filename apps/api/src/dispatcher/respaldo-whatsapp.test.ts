import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { msg } from '@pregon/contract/messages';
import { accionDePlantilla } from '@pregon/contract/rules/whatsapp';
import { SimuladorAmi, type Guion } from '@pregon/simulators/ami';
import { SimuladorWhatsapp } from '@pregon/simulators/whatsapp';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../testing/fabrica.ts';
import { archivoLlamadas } from '../services/telefonia.ts';
import { tonoGsm } from '../testing/audio.ts';
import { arrancarDespachador } from './index.ts';
import { CONFIG_PRUEBA, banderas, esperarCompletado, esperarQue, filas } from './testing.ts';

// Issue 25.2, the WhatsApp fallback: a call drill whose fallback is an approved WhatsApp template,
// against the AMI simulator (callees scripted by their last digit) and the WhatsApp Cloud API
// simulator (the witness of every message Meta accepted; its status webhooks come back signed to
// the api), on both engines. The template goes once to exactly those the drill did not reach; a
// pause or a stop in the middle of the fallbacks sends no more (a stop counts none that did not
// leave).

const GUIONES: Guion[] = [
  { patron: /2$/, accion: 'ocupado' },
  { patron: /3$/, accion: 'no_contesta' },
  // Hangs up 1.5 s into a 3 s audio: answered, not reached.
  { patron: /6$/, accion: 'colgar', colgarTrasMs: 1500 },
  { patron: /\d$/, accion: 'contestar' },
];

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
    let api: ApiDePrueba;
    let token: string;
    let dir: string;
    let ami: SimuladorAmi;
    const wa = new SimuladorWhatsapp({
      token: 'tok',
      phoneNumberId: '777000',
      appSecret: 'secreto-app',
      retrasoReciboMs: 30,
    });
    let llamadas: number;
    let despachador: Awaited<ReturnType<typeof arrancarDespachador>> | undefined;

    const arrancar = async () => {
      despachador = await arrancarDespachador(
        api.ctx.db,
        { ...CONFIG_PRUEBA, timbreMs: 2_000, reintentosLlamada: 1, esperaLlamadaMs: 200 },
        { eventos: api.ctx.eventos, bitacora: { info: () => {}, error: (t) => console.error(t) } },
      );
    };

    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-respaldo-wa-'));
      for (const d of ['dialplan', 'sonidos']) fs.mkdirSync(path.join(dir, d));
      tonoGsm(path.join(dir, 'sonidos', 'aviso.gsm'), 3);
      ami = new SimuladorAmi({
        usuario: 'pregon',
        secreto: 'ami-secreto',
        dirDialplan: path.join(dir, 'dialplan'),
        dirSonidos: path.join(dir, 'sonidos'),
        velocidad: 40,
        guiones: GUIONES,
      });
      await ami.iniciar();
      api = await levantarApi(motor);
      token = await ingresar(api);
      await wa.iniciar();
      wa.webhookUrl = `${api.url}/webhooks/whatsapp/`;
      llamadas = await crearEquipo(api.ctx.db, {
        protocolo: 'asterisk',
        alias: 'LLAMADAS simulador',
        url: ami.url,
        credenciales: { usuario: 'pregon', secreto: 'ami-secreto', troncal: 'demo' },
        tasa: 50,
        puertos: 20,
      });
    });
    afterEach(async () => {
      await despachador?.detener();
      despachador = undefined;
    });
    afterAll(async () => {
      await wa.detener();
      await ami?.detener();
      await api?.cerrar();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    /** A call drill of these phones with a WhatsApp template fallback through a new WhatsApp
     * device of `tasa` messages a second. */
    const drill = async (telefonos: string[], tasa: number) => {
      const whatsapp = await crearEquipo(api.ctx.db, {
        protocolo: 'whatsapp',
        url: wa.url,
        tasa,
        puertos: 1,
        credenciales: { token: 'tok', phone_number_id: '777000', app_secret: 'secreto-app' },
      });
      const id = await crearEjercicio(api.ctx.db, {
        id_equipo: llamadas,
        tipo: 2,
        puertos: 20,
        accion: 'aviso',
        iniciar: false,
        extra: telefonos,
        respaldo: { id_equipo: whatsapp, texto: accionDePlantilla(PLANTILLA), puertos: 1, tipo: 3 },
      });
      const companero = await api.ctx.db.kysely
        .selectFrom('ejercicios')
        .select(['id_ejercicio', 'id_tipo_ejercicio'])
        .where('respaldo_de', '=', id)
        .executeTakeFirstOrThrow();
      expect(companero.id_tipo_ejercicio).toBe(3);
      return { id, companero: companero.id_ejercicio };
    };
    const iniciar = async (id: number) => {
      fs.writeFileSync(
        path.join(dir, 'dialplan', 'pregon-llamadas.conf'),
        await archivoLlamadas(api.ctx),
      );
      ami.recargar();
      const r = await pedir(api.url, 'POST', '/ejercicio/calls/', {
        token,
        body: { id_ejercicio: id, time: 35000 },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    };
    /** WhatsApp messages Meta accepted for each of these phones. */
    const mensajesPor = (telefonos: readonly string[]) =>
      new Map(telefonos.map((t) => [t, wa.registro.filter((m) => m.telefono.endsWith(t)).length]));
    const aceptados = (telefonos: readonly string[]) =>
      [...mensajesPor(telefonos).values()].reduce((a, b) => a + b, 0);
    const entregadosYa = async (companero: number, n: number) =>
      esperarQue(
        async () =>
          (await filas(api.ctx.db, companero)).filter((r) => r.estatus === 'entregado').length >= n,
        `${n} respaldos entregados`,
        30_000,
      );

    it('exactly the unreached get the template once, after their last attempt; dashboard, list, report and history say WhatsApp', async () => {
      const telefonos = Array.from(
        { length: 20 },
        (_, i) => `56${String(2000 + i).padStart(8, '0')}`,
      );
      const { id, companero } = await drill(telefonos, 50);
      await arrancar();
      await iniciar(id);
      await esperarCompletado(api.ctx.db, id, 60_000);
      // Completion does not wait for the status webhooks.
      await entregadosYa(companero, 6);

      const llamadasFilas = await filas(api.ctx.db, id);
      const respaldos = await filas(api.ctx.db, companero);
      const noAlcanzado = (t: string) => ['2', '3', '6'].includes(t.at(-1)!);
      const esperados = telefonos.filter(noAlcanzado);
      expect(esperados.length).toBe(6);
      expect(respaldos.map((r) => r.telefono).sort()).toEqual([...esperados].sort());
      for (const r of respaldos) {
        const origen = llamadasFilas.find((f) => f.id_detalle === r.respaldo_de)!;
        expect(origen.telefono).toBe(r.telefono);
        if (origen.estatus !== 'contestado') expect(origen.intentos).toBe(2);
        expect([r.estatus, r.intentos, r.recibida], r.telefono).toEqual(['entregado', 1, 1]);
        expect(r.id_gateway).toMatch(/^wamid\./);
      }
      // The simulator is the witness: one template each to the unreached, nothing to the rest.
      const porTelefono = mensajesPor(telefonos);
      for (const t of telefonos) expect(porTelefono.get(t), t).toBe(noAlcanzado(t) ? 1 : 0);
      expect(
        wa.registro
          .filter((m) => telefonos.some((t) => m.telefono.endsWith(t)))
          .map((m) => m.texto),
      ).toEqual(esperados.map(() => TEXTO));
      expect((await banderas(api.ctx.db, companero)).completado).toBe(1);

      const t = await pedir(api.url, 'GET', `/tablero/ejercicio/${id}/`, { token });
      expect(t.status).toBe(200);
      expect(t.body.respaldo).toEqual({
        canal: 'whatsapp',
        enviados: 6,
        entregados: 6,
        leidos: 0,
        fallidos: 0,
        pendientes: 0,
      });
      // The simulator sends no 'read' status: none read (issue 25.1).
      expect(msg('tableroRespaldoWhatsapp', t.body.respaldo)).toBe(
        'Respaldo por WhatsApp: 6 enviados, 6 entregados, 0 leídos',
      );
      const lista = await pedir(api.url, 'GET', '/ejercicios/', { token });
      const ids = lista.body.data.map((f: { id_ejercicio: number }) => f.id_ejercicio);
      expect(ids).not.toContain(companero);
      const fila = lista.body.data.find((f: { id_ejercicio: number }) => f.id_ejercicio === id);
      expect([fila.respaldo_canal, fila.respaldo_texto, fila.respaldo_plantilla]).toEqual([
        'whatsapp',
        null,
        PLANTILLA,
      ]);

      // The after-action report's 'No alcanzados' sheet names the WhatsApp fallback.
      const res = await fetch(`${api.url}/reportes/xlsx/${id}/`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      const libro = new ExcelJS.Workbook();
      await libro.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
      const no = libro.getWorksheet('No alcanzados')!;
      expect([no.getRow(1).getCell(8).value, no.getRow(1).getCell(9).value]).toEqual([
        'WhatsApp de respaldo',
        'Hora del WhatsApp de respaldo',
      ]);
      for (let i = 2; i <= no.rowCount; i++)
        expect(no.getRow(i).getCell(8).value, String(no.getRow(i).getCell(1).value)).toBe(
          'Entregado',
        );

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
      const telefonos = Array.from(
        { length: 12 },
        (_, i) => `57${String(6000 + i * 10).padStart(7, '0')}2`,
      );
      const { id, companero } = await drill(telefonos, 2);
      await arrancar();
      await iniciar(id);
      await entregadosYa(companero, 3);
      const p = await pedir(api.url, 'POST', '/ejercicio/pausa/', {
        token,
        body: { id_ejercicio: id, proceso: 0, pausa: 1 },
      });
      expect(p.status).toBe(200);
      expect((await banderas(api.ctx.db, companero)).en_pausa).toBe(1);
      await new Promise((r) => setTimeout(r, 700));
      const enPausa = aceptados(telefonos);
      await new Promise((r) => setTimeout(r, 2_000));
      expect(aceptados(telefonos)).toBe(enPausa);
      expect(enPausa).toBeLessThan(12);

      const s = await pedir(api.url, 'POST', '/ejercicio/pausa/', {
        token,
        body: { id_ejercicio: id, proceso: 1, pausa: 0 },
      });
      expect(s.status).toBe(200);
      await esperarCompletado(api.ctx.db, id, 60_000);
      await entregadosYa(companero, 12);
      for (const [t, n] of mensajesPor(telefonos)) expect(n, t).toBe(1);
      const rs = await filas(api.ctx.db, companero);
      expect(rs.every((r) => r.estatus === 'entregado' && r.intentos === 1)).toBe(true);
    });

    it('stop in the middle of the fallbacks: no more leave; what did not leave is cancelled, uncounted', async () => {
      const telefonos = Array.from(
        { length: 12 },
        (_, i) => `57${String(4000 + i * 10).padStart(7, '0')}2`,
      );
      const { id, companero } = await drill(telefonos, 2);
      await arrancar();
      await iniciar(id);
      await entregadosYa(companero, 3);
      const r = await pedir(api.url, 'POST', '/quiz/stop/', { token, body: { id_ejercicio: id } });
      expect(r.status).toBe(200);
      await new Promise((r) => setTimeout(r, 700));
      const alParar = aceptados(telefonos);
      await new Promise((r) => setTimeout(r, 2_000));
      expect(aceptados(telefonos)).toBe(alParar);
      expect(alParar).toBeLessThan(12);

      const rs = await filas(api.ctx.db, companero);
      const porTelefono = mensajesPor(telefonos);
      for (const f of rs) {
        const n = porTelefono.get(f.telefono)!;
        expect(n, f.telefono).toBeLessThanOrEqual(1);
        if (n === 1) expect(['enviado', 'entregado']).toContain(f.estatus);
        else expect([f.estatus, f.intentos]).toEqual(['cancelado', 0]);
      }
      expect(rs.some((f) => f.estatus === 'pendiente' || f.estatus === 'en_curso')).toBe(false);
      expect((await banderas(api.ctx.db, companero)).completado).toBe(1);
      const t = await pedir(api.url, 'GET', `/tablero/ejercicio/${id}/`, { token });
      expect(t.body.respaldo.canal).toBe('whatsapp');
      expect(t.body.respaldo.enviados).toBe(alParar);
      expect(t.body.respaldo.pendientes).toBe(0);
    });
  },
);
