import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clavesPbx, crearAppPbx } from '@pregon/pbx/app';
import { cargarConfigPbx } from '@pregon/pbx/config';
import { ARCHIVO_LLAMADAS, contextoLlamada } from '@pregon/contract/rules/dialplan';
import { tonoGsm } from '../../testing/audio.ts';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { SimuladorWhatsapp } from '@pregon/simulators/whatsapp';
import { accionDePlantilla } from '@pregon/contract/rules/whatsapp';
import { msg } from '@pregon/contract/messages';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { tokenConRol } from '../../testing/roles.ts';
import { crearEquipo } from '../../testing/fabrica.ts';
import { ESTADO_CDMX, cuerpoEjercicio, insertarTelefono } from '../../testing/ejercicios.ts';
import { aprobarPorApi, tokenAprobador } from '../../testing/aprobaciones.ts';
import { arrancarDespachador } from '../dispatcher/index.ts';
import { CONFIG_PRUEBA, esperarCompletado } from '@pregon/despacho/testing/comun';

// Issue 47.2: 'Enviar corrección' and 'Cancelar alerta' in one step, from a correction or
// cancellation template whose version was approved beforehand: POST /ejercicio/{id}/correccion/
// creates an SMS exercise to the original's recipients, in its mode, as a link of its chain, and
// starts it with no new approval; the SMSC receives the filled text. Refused (nothing written)
// when the version is not approved, is of another use, or leaves a placeholder unfilled. Audited.

describe.each(MOTORES)('corrección y cancelación en un paso (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let operador: string;
  let consulta: string;
  let aprobador: string;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>>;
  const smsc = new SimuladorSmpp({ retrasoReciboMs: 5 });
  const wa = new SimuladorWhatsapp({ token: 'tok', phoneNumberId: '777000', appSecret: 's' });
  let equipo: number;
  let equipoWa: number;
  // The real telephony agent over HTTP (a correction by call writes its dialplan there).
  let agente: FastifyInstance;
  let urlAgente: string;
  let dirDialplan: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-correccion-'));
  const TELS = ['5541000001', '5541000002'];

  const crearPlantilla = async (
    nombre: string,
    uso: string,
    texto_sms: string,
    mas: Record<string, unknown> = {},
  ) => {
    const r = await pedir(api.url, 'POST', '/plantillas-mensaje/', {
      token: admin,
      body: { nombre, id_peligro: 1, uso, texto_sms, ...mas },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data.versiones[0].id_version as number;
  };
  const aprobarVersion = async (id: number) => {
    const r = await pedir(api.url, 'POST', `/plantillas-mensaje/versiones/${id}/aprobar/`, {
      token: aprobador,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  };
  const corregir = (id: number, body: Record<string, unknown>, token = admin) =>
    pedir(api.url, 'POST', `/ejercicio/${id}/correccion/`, { token, body });
  const contarEjercicios = async () =>
    Number(
      (
        await api.ctx.db.kysely
          .selectFrom('ejercicios')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** Creates and generates an SMS exercise to the two phones; returns its id. */
  const crearConDestinatarios = async (extra: Record<string, unknown>) => {
    const r = await pedir(api.url, 'POST', '/ejercicio/', {
      token: admin,
      body: cuerpoEjercicio(equipo, { categorias: '1', ...extra }),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const id = r.body.id_ejercicio as number;
    const g = await pedir(api.url, 'POST', '/ejercicio/generar/', {
      token: admin,
      body: { ejercicio: id, estado: ESTADO_CDMX, categorias: '1' },
    });
    expect(g.status).toBe(200);
    return id;
  };

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    operador = (await tokenConRol(api, 'operadores', 'operadora')).token;
    consulta = (await tokenConRol(api, 'consulta', 'consultora')).token;
    aprobador = await tokenAprobador(api);
    await smsc.iniciar();
    equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: smsc.url,
      alias: 'SMSC corrección',
      puertos: 1,
    });
    await wa.iniciar();
    equipoWa = await crearEquipo(api.ctx.db, {
      protocolo: 'whatsapp',
      url: wa.url,
      alias: 'WhatsApp corrección',
      credenciales: { token: 'tok', phone_number_id: '777000', app_secret: 's' },
    });
    for (const t of TELS) await insertarTelefono(api, t, ESTADO_CDMX, [1]);
    const config = cargarConfigPbx({
      DATA_DIR: api.config.dataDir,
      LOG_LEVEL: 'silent',
      PBX_API_URL: api.url,
      PBX_SONIDOS_DIR: path.join(dir, 'sonidos'),
      PBX_DIALPLAN_DIR: path.join(dir, 'dialplan'),
      PBX_SONIDOS_SISTEMA_DIR: path.join(dir, 'sistema'),
    });
    for (const d of [config.sonidosDir, config.dialplanDir]) fs.mkdirSync(d, { recursive: true });
    dirDialplan = config.dialplanDir;
    agente = await crearAppPbx(config, await clavesPbx(config));
    await agente.listen({ port: 0, host: '127.0.0.1' });
    const a = agente.server.address();
    urlAgente = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
    (api.ctx.config as { pbxBase?: string }).pbxBase = urlAgente;
    despachador = await arrancarDespachador(api.ctx.db, CONFIG_PRUEBA, {
      eventos: api.ctx.eventos,
    });
  });
  afterAll(async () => {
    await despachador?.detener();
    await smsc.detener();
    await wa.detener();
    await agente?.close();
    await api?.cerrar();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    'una alerta real iniciada: la corrección de una plantilla aprobada sale sin nueva aprobación y llega al SMSC',
    { timeout: 90_000 },
    async () => {
      const original = await crearConDestinatarios({
        titulo: 'Sismo Oaxaca',
        modo: 'real',
        motivo_alerta: 'Sismo M7.1',
        accion: 'Sismo de magnitud 8.1: evacúe',
      });
      await aprobarPorApi(api, admin, original);
      const inicio = await pedir(api.url, 'POST', '/ejercicio/sms/', {
        token: admin,
        body: { id_ejercicio: original },
      });
      expect(inicio.status, JSON.stringify(inicio.body)).toBe(200);
      await esperarCompletado(api.ctx.db, original);

      const noAprobada = await crearPlantilla(
        'Corrección de magnitud',
        'correccion',
        'CORRECCIÓN: el sismo en {estado} fue de magnitud 7.1, no 8.1. Refugio: {refugio}',
      );
      const deAlerta = await crearPlantilla('Sismo fuerte', 'alerta', 'Sismo en {estado}');
      await aprobarVersion(deAlerta);
      const valores = { estado: 'Oaxaca', refugio: 'Escuela Benito Juárez' };
      const antes = await contarEjercicios();

      // Refusals, nothing written: not approved, another use, a placeholder left, roles.
      const r1 = await corregir(original, {
        uso: 'correccion',
        id_version_plantilla: noAprobada,
        valores,
      });
      expect(r1.status).toBe(400);
      expect(r1.body.mensaje).toBe(
        msg('versionPlantillaNoAprobada', { version: 1, plantilla: 'Corrección de magnitud' }),
      );
      const r2 = await corregir(original, {
        uso: 'correccion',
        id_version_plantilla: deAlerta,
        valores,
      });
      expect(r2.status).toBe(400);
      expect(r2.body.mensaje).toBe(
        msg('correccionUsoDistinto', { uso: 'Alerta', esperado: 'Corrección' }),
      );
      await aprobarVersion(noAprobada);
      const r3 = await corregir(original, {
        uso: 'correccion',
        id_version_plantilla: noAprobada,
        valores: { estado: 'Oaxaca' },
      });
      expect(r3.status).toBe(400);
      expect(r3.body.mensaje).toBe(
        msg('correccionMarcadoresPendientes', { marcadores: '{refugio}' }),
      );
      const r4 = await corregir(
        original,
        { uso: 'correccion', id_version_plantilla: noAprobada, valores },
        consulta,
      );
      expect(r4.status).toBe(403);
      // A real alert's correction is a real alert: administrators only, as creating one.
      const r5 = await corregir(
        original,
        { uso: 'correccion', id_version_plantilla: noAprobada, valores },
        operador,
      );
      expect(r5.status).toBe(403);
      expect(await contarEjercicios()).toBe(antes);

      // Sent: created and started in one call, no new approval, same recipients.
      const previos = smsc.registro.length;
      const ok = await corregir(original, {
        uso: 'correccion',
        id_version_plantilla: noAprobada,
        valores,
      });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body).toMatchObject({ destinatarios: 2, detenidos: 0 });
      expect(ok.body.mensaje).toBe(
        msg('correccionEnviada', { ejercicio: 'Corrección: Sismo Oaxaca', N: '2' }),
      );
      const id = ok.body.id_ejercicio as number;
      await esperarCompletado(api.ctx.db, id);
      const texto =
        'CORRECCIÓN: el sismo en Oaxaca fue de magnitud 7.1, no 8.1. Refugio: Escuela Benito Juárez';
      const llegados = smsc.registro.slice(previos);
      expect(llegados.map((m) => m.texto)).toEqual([texto, texto]);
      expect(llegados.map((m) => m.telefono).sort()).toEqual(
        TELS.map((t) => expect.stringContaining(t)),
      );
      const fila = await api.ctx.db.kysely
        .selectFrom('ejercicios')
        .select(['modo', 'origen_id', 'aprobacion', 'aprobacion_resuelve', 'titulo', 'accion'])
        .where('id_ejercicio', '=', id)
        .executeTakeFirstOrThrow();
      expect(fila).toEqual({
        modo: 'real',
        origen_id: original,
        aprobacion: 'aprobada',
        aprobacion_resuelve: 'aprobador_prueba',
        titulo: 'Corrección: Sismo Oaxaca',
        accion: texto,
      });
      const auditoria = await api.ctx.db.kysely
        .selectFrom('auditoria')
        .select(['accion', 'id_entidad', 'detalle', 'usuario'])
        .where('entidad', '=', 'ejercicio')
        .where('id_entidad', 'in', [String(original), String(id)])
        .execute();
      const enviada = auditoria.find((a) => a.accion === 'enviar_correccion');
      expect(enviada?.id_entidad).toBe(String(original));
      expect(JSON.parse(String(enviada?.detalle))).toMatchObject({
        id_ejercicio: id,
        id_version_plantilla: noAprobada,
        destinatarios: 2,
      });
      expect(auditoria.filter((a) => a.id_entidad === String(id)).map((a) => a.accion)).toEqual(
        expect.arrayContaining(['crear', 'iniciar']),
      );
    },
  );

  it(
    'Cancelar alerta detiene un simulacro que sigue en curso y envía la cancelación con la marca',
    { timeout: 90_000 },
    async () => {
      const original = await crearConDestinatarios({
        titulo: 'Huracán Yucatán',
        accion: 'Huracán categoría 4: evacúe',
      });
      const sinIniciar = await crearPlantilla(
        'Cancelación general',
        'cancelacion',
        'CANCELADA la alerta de las {hora}: no hay peligro en {municipio}',
      );
      await aprobarVersion(sinIniciar);
      const valores = { hora: '11:00', municipio: 'Mérida' };
      const noIniciado = await corregir(original, {
        uso: 'cancelacion',
        id_version_plantilla: sinIniciar,
        valores,
      });
      expect(noIniciado.status).toBe(409);
      expect(noIniciado.body.mensaje).toBe(
        msg('correccionSinIniciar', { ejercicio: 'Huracán Yucatán' }),
      );
      // Started and paused: still sending, as far as a cancellation is concerned.
      await api.ctx.db.kysely
        .updateTable('ejercicios')
        .set({ en_proceso: 1, en_pausa: 1, iniciado: Date.now() })
        .where('id_ejercicio', '=', original)
        .execute();
      const previos = smsc.registro.length;
      const ok = await corregir(
        original,
        { uso: 'cancelacion', id_version_plantilla: sinIniciar, valores },
        operador,
      );
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body).toMatchObject({ destinatarios: 2, detenidos: 2 });
      const estado = await api.ctx.db.kysely
        .selectFrom('ejercicios')
        .select(['completado', 'detenido'])
        .where('id_ejercicio', '=', original)
        .executeTakeFirstOrThrow();
      expect(estado).toEqual({ completado: 1, detenido: 1 });
      await esperarCompletado(api.ctx.db, ok.body.id_ejercicio as number);
      const texto = 'SIMULACRO: CANCELADA la alerta de las 11:00: no hay peligro en Mérida';
      expect(smsc.registro.slice(previos).map((m) => m.texto)).toEqual([texto, texto]);
      // The original's device went down since: the next correction goes through another active
      // SMS device; a device asked for of a channel the version lacks, or none, is refused naming
      // the field.
      await api.ctx.db.kysely
        .updateTable('equipos')
        .set({ activo: 0 })
        .where('id_equipo', '=', equipo)
        .execute();
      const otro = await crearEquipo(api.ctx.db, {
        protocolo: 'smpp',
        url: smsc.url,
        alias: 'SMSC de reserva',
        puertos: 1,
      });
      const llamadas = await crearEquipo(api.ctx.db, { protocolo: 'asterisk', alias: 'PBX' });
      const noSms = await corregir(
        original,
        { uso: 'cancelacion', id_version_plantilla: sinIniciar, valores, equipo: llamadas },
        operador,
      );
      expect(noSms.status).toBe(400);
      // A call device for a version with no call audio: refused naming what is missing.
      expect(noSms.body.mensaje).toBe(
        msg('correccionSinContenidoCanal', {
          equipo: 'PBX',
          canal: 'llamada',
          contenido: 'audio de llamada',
        }),
      );
      const inexistente = await corregir(
        original,
        { uso: 'cancelacion', id_version_plantilla: sinIniciar, valores, equipo: 999_999 },
        operador,
      );
      expect(inexistente.status).toBe(400);
      expect(inexistente.body.mensaje).toBe(msg('correccionEquipoNoSms'));
      const previos2 = smsc.registro.length;
      const reserva = await corregir(
        original,
        { uso: 'cancelacion', id_version_plantilla: sinIniciar, valores },
        operador,
      );
      expect(reserva.status, JSON.stringify(reserva.body)).toBe(200);
      await esperarCompletado(api.ctx.db, reserva.body.id_ejercicio as number);
      expect(
        (
          await api.ctx.db.kysely
            .selectFrom('ejercicios')
            .select('id_equipo')
            .where('id_ejercicio', '=', reserva.body.id_ejercicio as number)
            .executeTakeFirstOrThrow()
        ).id_equipo,
      ).toBe(otro);
      expect(smsc.registro.slice(previos2).map((m) => m.texto)).toEqual([texto, texto]);
      await api.ctx.db.kysely
        .updateTable('equipos')
        .set({ activo: 1 })
        .where('id_equipo', '=', equipo)
        .execute();

      const auditoria = await api.ctx.db.kysely
        .selectFrom('auditoria')
        .select(['accion', 'usuario'])
        .where('entidad', '=', 'ejercicio')
        .where('id_entidad', '=', String(original))
        .execute();
      expect(auditoria).toEqual(
        expect.arrayContaining([
          { accion: 'detener', usuario: 'operadora' },
          { accion: 'cancelar_alerta', usuario: 'operadora' },
        ]),
      );
    },
  );

  it(
    'por el canal del original: una alerta por WhatsApp se corrige con la plantilla de WhatsApp; el equipo elegido decide el canal',
    { timeout: 90_000 },
    async () => {
      const original = await crearConDestinatarios({
        titulo: 'Tsunami Guerrero',
        tipo_ejercicio: '3',
        equipo: equipoWa,
        accion: accionDePlantilla({
          plantilla: 'aviso_simulacro',
          idioma: 'es_MX',
          parametros: ['la costa', 'la zona alta'],
        }),
      });
      const inicio = await pedir(api.url, 'POST', '/ejercicio/whatsapp/', {
        token: admin,
        body: { id_ejercicio: original },
      });
      expect(inicio.status, JSON.stringify(inicio.body)).toBe(200);
      await esperarCompletado(api.ctx.db, original);
      // Both channels in one version; a second one with an SMS text only.
      const ambas = await crearPlantilla(
        'Corrección de zona',
        'correccion',
        'CORRECCIÓN: la zona segura de {estado} es {refugio}',
        {
          whatsapp_plantilla: 'aviso_simulacro',
          whatsapp_idioma: 'es_MX',
          whatsapp_parametros: ['{estado}', '{refugio}'],
        },
      );
      const soloSms = await crearPlantilla(
        'Corrección breve',
        'correccion',
        'CORRECCIÓN en {estado}',
      );
      await aprobarVersion(ambas);
      await aprobarVersion(soloSms);
      const valores = { estado: 'Guerrero', refugio: 'el cerro del Vigía' };
      const antes = await contarEjercicios();

      // A WhatsApp device for a version with no WhatsApp template: 400 naming equipo.
      const sinWa = await corregir(original, {
        uso: 'correccion',
        id_version_plantilla: soloSms,
        valores,
        equipo: equipoWa,
      });
      expect(sinWa.status).toBe(400);
      expect(sinWa.body.mensaje).toBe(
        msg('correccionSinContenidoCanal', {
          equipo: 'WhatsApp corrección',
          canal: 'WhatsApp',
          contenido: 'plantilla de WhatsApp',
        }),
      );
      // A parameter's placeholder left: refused, nothing written.
      const falta = await corregir(original, {
        uso: 'correccion',
        id_version_plantilla: ambas,
        valores: { estado: 'Guerrero' },
      });
      expect(falta.status).toBe(400);
      expect(falta.body.mensaje).toBe(
        msg('correccionMarcadoresPendientes', { marcadores: '{refugio}' }),
      );
      expect(await contarEjercicios()).toBe(antes);

      // No device asked: the original's (WhatsApp), its template with the filled parameters.
      const previosWa = wa.registro.length;
      const porWa = await corregir(original, {
        uso: 'correccion',
        id_version_plantilla: ambas,
        valores,
      });
      expect(porWa.status, JSON.stringify(porWa.body)).toBe(200);
      const idWa = porWa.body.id_ejercicio as number;
      await esperarCompletado(api.ctx.db, idWa);
      expect(wa.registro.slice(previosWa).map((m) => m.texto)).toEqual([
        'Simulacro en Guerrero: diríjase a el cerro del Vigía y espere instrucciones.',
        'Simulacro en Guerrero: diríjase a el cerro del Vigía y espere instrucciones.',
      ]);
      const filaWa = await api.ctx.db.kysely
        .selectFrom('ejercicios')
        .select(['id_tipo_ejercicio', 'id_equipo', 'origen_id'])
        .where('id_ejercicio', '=', idWa)
        .executeTakeFirstOrThrow();
      expect(filaWa).toEqual({ id_tipo_ejercicio: 3, id_equipo: equipoWa, origen_id: original });

      // The SMS device asked for: the same version goes by SMS, with the drill marker.
      const previosSms = smsc.registro.length;
      const porSms = await corregir(original, {
        uso: 'correccion',
        id_version_plantilla: ambas,
        valores,
        equipo,
      });
      expect(porSms.status, JSON.stringify(porSms.body)).toBe(200);
      await esperarCompletado(api.ctx.db, porSms.body.id_ejercicio as number);
      const texto = 'SIMULACRO: CORRECCIÓN: la zona segura de Guerrero es el cerro del Vigía';
      expect(smsc.registro.slice(previosSms).map((m) => m.texto)).toEqual([texto, texto]);
      const auditoria = await api.ctx.db.kysely
        .selectFrom('auditoria')
        .select('detalle')
        .where('entidad', '=', 'ejercicio')
        .where('id_entidad', '=', String(original))
        .where('accion', '=', 'enviar_correccion')
        .orderBy('id_auditoria')
        .execute();
      expect(auditoria.map((a) => JSON.parse(String(a.detalle)) as unknown)).toEqual([
        expect.objectContaining({ canal: 'whatsapp', id_equipo: equipoWa }),
        expect.objectContaining({ canal: 'sms', id_equipo: equipo }),
      ]);
    },
  );

  it(
    'una llamada se corrige por llamada: el audio de la plantilla, su plan de marcado escrito en el agente, e iniciada',
    { timeout: 90_000 },
    async () => {
      // The correction's audio on the agent, uploaded as the create dialog uploads one.
      const archivo = path.join(dir, 'correccion-llamada.gsm');
      tonoGsm(archivo, 2);
      const form = new FormData();
      form.append('filename', 'correccion-llamada');
      form.append('file', new Blob([fs.readFileSync(archivo)]), 'correccion-llamada.gsm');
      const subida = await fetch(`${urlAgente}/asterisk/audio/upload/`, {
        method: 'POST',
        body: form,
        headers: { authorization: admin },
      });
      const { filename: audio } = (await subida.json()) as { filename: string };
      expect(subida.status).toBe(200);
      const llamadas = await crearEquipo(api.ctx.db, {
        protocolo: 'asterisk',
        alias: 'LLAMADAS corrección',
      });
      const original = await crearConDestinatarios({
        titulo: 'Sismo por llamada',
        tipo_ejercicio: '2',
        equipo: llamadas,
        accion: audio,
        tiempo: 2,
      });
      // It ran (no AMI here: marked as started and finished).
      await api.ctx.db.kysely
        .updateTable('ejercicios')
        .set({ iniciado: Date.now(), completado: 1 })
        .where('id_ejercicio', '=', original)
        .execute();
      const v = await crearPlantilla(
        'Corrección por llamada',
        'correccion',
        'CORRECCIÓN en {estado}',
        {
          audio,
        },
      );
      await aprobarVersion(v);
      const ok = await corregir(original, {
        uso: 'correccion',
        id_version_plantilla: v,
        valores: { estado: 'Oaxaca' },
      });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body).toMatchObject({ destinatarios: 2, detenidos: 0 });
      const id = ok.body.id_ejercicio as number;
      const fila = await api.ctx.db.kysely
        .selectFrom('ejercicios')
        .select(['id_tipo_ejercicio', 'accion', 'id_equipo', 'tiempo', 'origen_id'])
        .where('id_ejercicio', '=', id)
        .executeTakeFirstOrThrow();
      expect(fila).toEqual({
        id_tipo_ejercicio: 2,
        accion: audio,
        id_equipo: llamadas,
        tiempo: 2,
        origen_id: original,
      });
      const iniciado = await api.ctx.db.kysely
        .selectFrom('ejercicios')
        .select('iniciado')
        .where('id_ejercicio', '=', id)
        .executeTakeFirstOrThrow();
      expect(iniciado.iniciado).not.toBeNull();
      // Its context is in the agent's dialplan, playing the template's audio.
      const plan = fs.readFileSync(path.join(dirDialplan, ARCHIVO_LLAMADAS), 'utf8');
      expect(plan).toContain(`[${contextoLlamada(id)}]`);
      expect(plan).toContain(`Playback(pregon/${audio})`);
      const auditoria = await api.ctx.db.kysely
        .selectFrom('auditoria')
        .select('detalle')
        .where('entidad', '=', 'ejercicio')
        .where('id_entidad', '=', String(original))
        .where('accion', '=', 'enviar_correccion')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(String(auditoria.detalle))).toMatchObject({
        canal: 'llamada',
        id_equipo: llamadas,
      });

      // The agent down: refused with the 502 naming it, nothing left behind (the follow-up created
      // for it is deleted again, audited).
      await agente.close();
      const antes = await contarEjercicios();
      const caido = await corregir(original, {
        uso: 'correccion',
        id_version_plantilla: v,
        valores: { estado: 'Oaxaca' },
      });
      expect(caido.status).toBe(502);
      expect(caido.body.mensaje).toContain(urlAgente);
      expect(await contarEjercicios()).toBe(antes);
    },
  );
});
