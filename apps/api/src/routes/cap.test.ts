import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAP_NS, leerAlertaCap } from '@pregon/contract/rules/cap';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { tokenConRol } from '../../testing/roles.ts';
import {
  ESTADO_CDMX,
  ESTADO_JALISCO,
  cuerpoEjercicio,
  insertarEquipo,
  insertarTelefono,
} from '../../testing/ejercicios.ts';
import { validarContraXsd } from '../../testing/cap/validar.ts';
import { leerXml } from '../services/cap-xml.ts';

// Issue 47.4: CAP 1.2 out and in. Out: GET /ejercicio/{id}/cap.xml is a valid CAP 1.2 alert
// (checked by xmllint against OASIS's schema), status by mode, a stable identity, es-MX info with
// the message, one area per state with its INEGI code. In: POST /cap/ (a key with scope 'cap' or
// a signed-in operator) creates the exercise without starting it, Update edits it, Cancel stops
// it; every refusal names the element and writes nothing.

/** A CAP 1.2 alert as other systems send it. */
function alertaCap(o: {
  identifier: string;
  status?: string;
  msgType?: string;
  references?: string;
  headline?: string;
  area?: string;
  info?: string;
  prologo?: string;
}): string {
  const area =
    o.area ??
    '<area><areaDesc>Jalisco</areaDesc><geocode><valueName>INEGI</valueName><value>14</value></geocode></area>';
  const info =
    o.info ??
    `<info><language>es-MX</language><category>Geo</category><event>Sismo</event>
      <urgency>Immediate</urgency><severity>Severe</severity><certainty>Observed</certainty>
      <headline>${o.headline ?? 'Sismo fuerte en Jalisco'}</headline>
      <instruction>Aléjese de ventanas y siga a los brigadistas</instruction>${area}</info>`;
  return `<?xml version="1.0" encoding="UTF-8"?>${o.prologo ?? ''}
<alert xmlns="${CAP_NS}">
  <identifier>${o.identifier}</identifier><sender>sistema-estatal@jalisco.gob.mx</sender>
  <sent>2026-11-28T18:00:00-06:00</sent><status>${o.status ?? 'Exercise'}</status>
  <msgType>${o.msgType ?? 'Alert'}</msgType><scope>Public</scope>
  ${o.references ? `<references>${o.references}</references>` : ''}
  ${info}
</alert>`;
}

const enviarCap = (
  api: ApiDePrueba,
  token: string | undefined,
  xml: string,
  tipo = 'application/xml',
) => pedir(api.url, 'POST', '/cap/', { token, rawBody: xml, headers: { 'content-type': tipo } });

describe.each(MOTORES)('CAP 1.2 (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let operador: string;
  let consulta: string;
  let equipo: number;
  const bearer = (clave: string) => `Bearer ${clave}`;
  const crearClave = async (nombre: string, alcances: string) => {
    const r = await pedir(api.url, 'POST', '/integraciones/claves/', {
      token: admin,
      body: { nombre, alcances },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return bearer(r.body.clave as string);
  };
  const crear = async (extra: Record<string, unknown>) => {
    const r = await pedir(api.url, 'POST', '/ejercicio/', {
      token: admin,
      body: cuerpoEjercicio(equipo, { categorias: '1', ...extra }),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.id_ejercicio as number;
  };
  const ejercicio = (id: number) =>
    api.ctx.db.kysely
      .selectFrom('ejercicios')
      .selectAll()
      .where('id_ejercicio', '=', id)
      .executeTakeFirst();
  const cuenta = async (tabla: 'ejercicios' | 'alertas_cap') =>
    Number(
      (
        await api.ctx.db.kysely
          .selectFrom(tabla)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    operador = (await tokenConRol(api, 'operadores', 'operadora')).token;
    consulta = (await tokenConRol(api, 'consulta', 'lectora')).token;
    equipo = await insertarEquipo(api, 'SMS estatal', 'smpp');
    await insertarTelefono(api, '3310000001', ESTADO_JALISCO, [1]);
    await insertarTelefono(api, '3310000002', ESTADO_JALISCO, [2]);
    await insertarTelefono(api, '5510000001', ESTADO_CDMX, [1]);
  });
  afterAll(async () => {
    await api?.cerrar();
  });

  describe('salida: GET /ejercicio/{id}/cap.xml', () => {
    it('cada modo es una alerta CAP 1.2 válida según el esquema XSD de OASIS', async () => {
      const casos = [
        { modo: 'simulacro', status: 'Exercise', nota: 'Simulacro' },
        { modo: 'prueba', status: 'Test', nota: 'Prueba' },
        { modo: 'real', status: 'Actual', nota: 'Alerta real' },
      ];
      for (const c of casos) {
        const id = await crear({
          titulo: `Sismo & réplica <${c.modo}>`,
          accion: 'Sismo de magnitud 7.2: "evacúe" ahora',
          estado: ESTADO_CDMX,
          estados: `${ESTADO_CDMX},${ESTADO_JALISCO}`,
          modo: c.modo,
          ...(c.modo === 'real' ? { motivo_alerta: 'Sismo confirmado por el SSN' } : {}),
        });
        const r = await pedir(api.url, 'GET', `/ejercicio/${id}/cap.xml`, { token: admin });
        expect(r.status).toBe(200);
        expect(r.headers.get('content-type')).toBe('application/cap+xml; charset=utf-8');
        const xml = r.body as string;
        const v = validarContraXsd(xml);
        expect(v.ok, v.salida).toBe(true);
        const a = leerAlertaCap(leerXml(xml));
        expect(a.status).toBe(c.status);
        expect(a.msgType).toBe('Alert');
        expect(a.identifier).toBe(`pregon-ejercicio-${id}`);
        expect(a.sender).toBe('pregon');
        expect(a.sentTexto).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-0[56]:00$/);
        expect(a.infos).toHaveLength(1);
        const info = a.infos[0]!;
        expect(info.language).toBe('es-MX');
        expect(info.headline).toBe(`Sismo & réplica <${c.modo}>`);
        // A drill's text carries the drill marker, as the phones receive it.
        expect(info.description).toBe(
          c.modo === 'simulacro'
            ? 'SIMULACRO: Sismo de magnitud 7.2: "evacúe" ahora'
            : 'Sismo de magnitud 7.2: "evacúe" ahora',
        );
        expect(info.onset).toBe(Date.parse('2026-09-19T11:00:00-06:00'));
        expect(info.areas).toEqual([
          {
            areaDesc: 'Ciudad de México',
            poligonos: 0,
            circulos: 0,
            geocodes: [{ valueName: 'INEGI', value: '09' }],
          },
          {
            areaDesc: 'Jalisco',
            poligonos: 0,
            circulos: 0,
            geocodes: [{ valueName: 'INEGI', value: '14' }],
          },
        ]);
        expect(xml).toContain(`<note>${c.nota}</note>`);
        // Identity and sent time never change between exports.
        const otra = await pedir(api.url, 'GET', `/ejercicio/${id}/cap.xml`, { token: consulta });
        expect(otra.status).toBe(200);
        expect(otra.body).toBe(xml);
      }
    });

    it('sin sesión 401, clave sin lectura 403, clave de lectura y rol consulta 200; 404 si no existe', async () => {
      const id = await crear({ titulo: 'Roles CAP' });
      const ruta = `/ejercicio/${id}/cap.xml`;
      expect((await pedir(api.url, 'GET', ruta)).status).toBe(401);
      const soloCap = await crearClave('Solo CAP', 'cap');
      const r403 = await pedir(api.url, 'GET', ruta, { token: soloCap });
      expect(r403.status).toBe(403);
      expect(r403.body.mensaje).toBe(
        "La clave de API no tiene el alcance 'lectura' que pide esta acción",
      );
      const lectura = await crearClave('Lectura CAP', 'lectura');
      expect((await pedir(api.url, 'GET', ruta, { token: lectura })).status).toBe(200);
      expect((await pedir(api.url, 'GET', ruta, { token: consulta })).status).toBe(200);
      expect(
        (await pedir(api.url, 'GET', '/ejercicio/999999/cap.xml', { token: admin })).status,
      ).toBe(404);
    });
  });

  describe('entrada: POST /cap/', () => {
    it('Alert de una clave con alcance cap crea el simulacro sin iniciarlo; Update lo edita; Cancel lo detiene', async () => {
      const clave = await crearClave('Sistema estatal CAP', 'cap');
      const r = await enviarCap(api, clave, alertaCap({ identifier: 'JAL-2026-0001' }));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.accion).toBe('creado');
      const id = r.body.id_ejercicio as number;
      // Issue 47.4: every alert that arrives by CAP lands 'Pendiente de aprobación', a drill
      // under the approval threshold (none set here) too, asked by the key's account.
      expect(r.body.mensaje).toBe(
        `Alerta CAP recibida: ejercicio ${id} creado sin iniciar y pendiente de aprobación: una segunda persona con el rol Aprobadores debe aprobarlo antes de iniciarlo`,
      );
      let e = await ejercicio(id);
      expect(e).toMatchObject({
        titulo: 'Sismo fuerte en Jalisco',
        modo: 'simulacro',
        id_tipo_ejercicio: 1,
        id_equipo: equipo,
        id_estado: ESTADO_JALISCO,
        accion: 'SIMULACRO: Sismo fuerte en Jalisco\nAléjese de ventanas y siga a los brigadistas',
        iniciado: null,
        en_proceso: 0,
        completado: 0,
        inicio_automatico: 0,
        procedencia: 'cap',
        aprobacion: 'pendiente',
        aprobacion_solicitante: 'clave:Sistema estatal CAP',
      });
      // Every category of the state's phones: both Jalisco phones, not the CDMX one.
      expect(Number(e!.destinatarios)).toBe(2);
      // Its start is refused until a second person approves it, as a real alert's is.
      const inicio = await pedir(api.url, 'POST', '/ejercicio/sms/', {
        token: admin,
        body: { id_ejercicio: id },
      });
      expect(inicio.status).toBe(409);
      expect(inicio.body.mensaje).toBe(
        'Este ejercicio está pendiente de aprobación: no puede iniciar hasta que una segunda persona con el rol Aprobadores lo apruebe',
      );
      // Audited in creation order: the alert received, the exercise created with its origin,
      // its recipients, the request; one transaction.
      const historia = await api.ctx.db.kysely
        .selectFrom('auditoria')
        .select(['accion'])
        .where('entidad', '=', 'ejercicio')
        .where('id_entidad', '=', String(id))
        .orderBy('id_auditoria')
        .execute();
      expect(historia.map((h) => h.accion)).toEqual([
        'crear',
        'generar',
        'solicitar_aprobacion',
        'recibir_cap',
      ]);

      // The same alert again: recognised by sender and identifier, nothing created.
      const antes = await cuenta('ejercicios');
      const otra = await enviarCap(api, clave, alertaCap({ identifier: 'JAL-2026-0001' }));
      expect(otra.status).toBe(409);
      expect(otra.body.mensaje).toBe(
        `La alerta CAP JAL-2026-0001 de sistema-estatal@jalisco.gob.mx ya se recibió (ejercicio ${id}): no se crea otra vez`,
      );
      expect(await cuenta('ejercicios')).toBe(antes);

      const ref = 'sistema-estatal@jalisco.gob.mx,JAL-2026-0001,2026-11-28T18:00:00-06:00';
      const u = await enviarCap(
        api,
        clave,
        alertaCap({
          identifier: 'JAL-2026-0002',
          msgType: 'Update',
          references: ref,
          headline: 'Sismo fuerte: réplicas en Jalisco y CDMX',
          area: `<area><areaDesc>Jalisco</areaDesc><geocode><valueName>INEGI</valueName><value>14</value></geocode></area>
                 <area><areaDesc>Ciudad de Mexico</areaDesc></area>`,
        }),
      );
      expect(u.status, JSON.stringify(u.body)).toBe(200);
      expect(u.body).toMatchObject({ accion: 'actualizado', id_ejercicio: id });
      e = await ejercicio(id);
      expect(e!.titulo).toBe('Sismo fuerte: réplicas en Jalisco y CDMX');
      expect(e!.estados).toBe(`${ESTADO_JALISCO},${ESTADO_CDMX}`);
      expect(Number(e!.destinatarios)).toBe(3);
      expect(e!.iniciado).toBeNull();

      const c = await enviarCap(
        api,
        clave,
        alertaCap({
          identifier: 'JAL-2026-0003',
          msgType: 'Cancel',
          references: `${ref} sistema-estatal@jalisco.gob.mx,JAL-2026-0002,2026-11-28T18:00:00-06:00`,
        }),
      );
      expect(c.status, JSON.stringify(c.body)).toBe(200);
      expect(c.body).toMatchObject({ accion: 'detenido', id_ejercicio: id });
      e = await ejercicio(id);
      expect(e).toMatchObject({ completado: 1, detenido: 1, iniciado: null });
      const auditado = await api.ctx.db.kysely
        .selectFrom('auditoria')
        .select(['usuario', 'accion'])
        .where('accion', '=', 'recibir_cap')
        .where('id_entidad', '=', String(id))
        .execute();
      expect(auditado).toHaveLength(3);
      expect(auditado[0]!.usuario).toBe('clave:Sistema estatal CAP');
    });

    it('status Actual (un administrador) crea una Alerta real sin marca, sin iniciar; Test una Prueba', async () => {
      const real = await enviarCap(
        api,
        admin,
        alertaCap({ identifier: 'JAL-R-1', status: 'Actual' }),
      );
      expect(real.status, JSON.stringify(real.body)).toBe(200);
      const id = real.body.id_ejercicio as number;
      // Issue 47.2: it lands in 'Pendiente de aprobación', asked by the account that sent it.
      expect(real.body.mensaje).toBe(
        `Alerta CAP recibida: ejercicio ${id} creado sin iniciar y pendiente de aprobación: una segunda persona con el rol Aprobadores debe aprobarlo antes de iniciarlo`,
      );
      const e = await ejercicio(id);
      expect(e).toMatchObject({
        modo: 'real',
        accion: 'Sismo fuerte en Jalisco\nAléjese de ventanas y siga a los brigadistas',
        ignora_bajas_motivo: 'Alerta CAP JAL-R-1 de sistema-estatal@jalisco.gob.mx',
        iniciado: null,
        en_proceso: 0,
        aprobacion: 'pendiente',
        aprobacion_solicitante: 'admin',
      });
      expect(Number(e!.aprobacion_expira)).toBeGreaterThan(Date.now());
      const solicitud = await api.ctx.db.kysely
        .selectFrom('auditoria')
        .select(['usuario'])
        .where('accion', '=', 'solicitar_aprobacion')
        .where('id_entidad', '=', String(id))
        .execute();
      expect(solicitud).toEqual([{ usuario: 'admin' }]);
      // An approver sees it among the pending requests at once, and may decide it.
      const aprobadora = (await tokenConRol(api, 'aprobadores', 'aprobadora_cap')).token;
      const pendientes = await pedir(api.url, 'GET', '/aprobaciones/pendientes/', {
        token: aprobadora,
      });
      expect(pendientes.status, JSON.stringify(pendientes.body)).toBe(200);
      expect(pendientes.body.data).toContainEqual(
        expect.objectContaining({
          id_ejercicio: id,
          ejercicio: 'Sismo fuerte en Jalisco',
          modo: 'real',
          destinatarios: 2,
          solicitante: 'admin',
          puede_aprobar: true,
        }),
      );
      // Not started, and its start refused until approved.
      const inicio = await pedir(api.url, 'POST', '/ejercicio/sms/', {
        token: admin,
        body: { id_ejercicio: id },
      });
      expect(inicio.status).toBe(409);
      expect(inicio.body.mensaje).toBe(
        'Este ejercicio está pendiente de aprobación: no puede iniciar hasta que una segunda persona con el rol Aprobadores lo apruebe',
      );
      const prueba = await enviarCap(
        api,
        operador,
        alertaCap({ identifier: 'JAL-T-1', status: 'Test' }),
      );
      expect(prueba.status, JSON.stringify(prueba.body)).toBe(200);
      // Issue 47.4: a test (or drill) under the approval threshold, by CAP, needs it too. A test
      // reaches only the test list (empty here): nothing to ask approval for yet, and its start
      // is refused until someone adds recipients and asks.
      const idPrueba = prueba.body.id_ejercicio as number;
      expect(prueba.body.mensaje).toBe(
        `Alerta CAP recibida: ejercicio ${idPrueba} creado sin iniciar y sin destinatarios en sus estados: agréguelos y solicite su aprobación desde Pregón`,
      );
      expect(await ejercicio(idPrueba)).toMatchObject({
        modo: 'prueba',
        procedencia: 'cap',
        destinatarios: 0,
        aprobacion: null,
      });
      const inicioPrueba = await pedir(api.url, 'POST', '/ejercicio/sms/', {
        token: admin,
        body: { id_ejercicio: idPrueba },
      });
      expect(inicioPrueba.status).toBe(409);
      expect(inicioPrueba.body.mensaje).toBe(
        'Este ejercicio necesita la aprobación de una segunda persona con el rol Aprobadores antes de iniciar: use «Solicitar aprobación»',
      );
      // An operator may not create a real alert, by CAP or otherwise.
      const r403 = await enviarCap(
        api,
        operador,
        alertaCap({ identifier: 'JAL-R-2', status: 'Actual' }),
      );
      expect(r403.status).toBe(403);
    });

    it('la misma alerta entregada dos veces a la vez: un ejercicio, la otra entrega 409 sin dejar nada', async () => {
      const clave = await crearClave('Sistema CAP doble', 'cap');
      const antes = await cuenta('ejercicios');
      const xml = alertaCap({ identifier: 'JAL-DOBLE-1' });
      const r = await Promise.all([1, 2, 3].map(() => enviarCap(api, clave, xml)));
      const estados = r.map((x) => x.status).sort();
      expect(estados, JSON.stringify(r.map((x) => x.body))).toEqual([200, 409, 409]);
      const id = r.find((x) => x.status === 200)!.body.id_ejercicio as number;
      for (const x of r.filter((x) => x.status === 409))
        expect(x.body.mensaje).toBe(
          `La alerta CAP JAL-DOBLE-1 de sistema-estatal@jalisco.gob.mx ya se recibió (ejercicio ${id}): no se crea otra vez`,
        );
      // The identity, claimed in the creating transaction, names the one exercise; the others'
      // exercises were rolled back with their claim.
      expect(await cuenta('ejercicios')).toBe(antes + 1);
      const alertas = await api.ctx.db.kysely
        .selectFrom('alertas_cap')
        .select('id_ejercicio')
        .where('identificador', '=', 'JAL-DOBLE-1')
        .execute();
      expect(alertas).toEqual([{ id_ejercicio: id }]);
      expect(await ejercicio(id)).toMatchObject({ aprobacion: 'pendiente', procedencia: 'cap' });
    });

    it('un simulacro sobre el umbral de aprobación, de una clave cap, queda pendiente pedido por la clave', async () => {
      const antes = process.env.APROBACION_DESDE_DESTINATARIOS;
      process.env.APROBACION_DESDE_DESTINATARIOS = '1';
      try {
        const clave = await crearClave('Sistema CAP umbral', 'cap');
        const r = await enviarCap(api, clave, alertaCap({ identifier: 'JAL-U-1' }));
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        const id = r.body.id_ejercicio as number;
        expect(r.body.mensaje).toBe(
          `Alerta CAP recibida: ejercicio ${id} creado sin iniciar y pendiente de aprobación: una segunda persona con el rol Aprobadores debe aprobarlo antes de iniciarlo`,
        );
        // Two Jalisco phones, over the threshold of 1: asked as the key's account.
        expect(await ejercicio(id)).toMatchObject({
          modo: 'simulacro',
          aprobacion: 'pendiente',
          aprobacion_solicitante: 'clave:Sistema CAP umbral',
          aprobacion_solicitante_id: null,
        });
        const auditado = await api.ctx.db.kysely
          .selectFrom('auditoria')
          .select(['usuario'])
          .where('accion', '=', 'solicitar_aprobacion')
          .where('id_entidad', '=', String(id))
          .execute();
        expect(auditado).toEqual([{ usuario: 'clave:Sistema CAP umbral' }]);
      } finally {
        if (antes === undefined) delete process.env.APROBACION_DESDE_DESTINATARIOS;
        else process.env.APROBACION_DESDE_DESTINATARIOS = antes;
      }
    });

    it('rechazos en español que nombran el elemento, sin escribir nada', async () => {
      const casos: { xml: string; status: number; mensaje: string; tipo?: string }[] = [
        {
          xml: alertaCap({ identifier: 'X-1', status: 'System' }),
          status: 400,
          mensaje:
            "Una alerta CAP con <status> 'System' no crea ejercicios: solo Actual (Alerta real), Exercise (Simulacro) y Test (Prueba)",
        },
        {
          xml: alertaCap({ identifier: 'X-2', status: 'Simulacro' }),
          status: 400,
          mensaje:
            "El elemento <status> de la alerta CAP no es válido: 'Simulacro' (debe ser uno de: Actual, Exercise, System, Test, Draft)",
        },
        {
          xml: alertaCap({
            identifier: 'X-3',
            info: '<info><language>es-MX</language><category>Geo</category><urgency>Immediate</urgency><severity>Severe</severity><certainty>Observed</certainty></info>',
          }),
          status: 400,
          mensaje: 'Falta el elemento <info/event> de la alerta CAP',
        },
        {
          xml: alertaCap({
            identifier: 'X-4',
            area: '<area><areaDesc>Zona costera</areaDesc><polygon>20.5,-105.3 20.7,-105.2 20.6,-105.0 20.5,-105.3</polygon></area>',
          }),
          status: 400,
          mensaje:
            "El área 'Zona costera' (<info/area[1]>) solo trae polígono o círculo: Pregón elige destinatarios por estado; indique el estado con <geocode> (valueName INEGI y su clave) o su nombre en <areaDesc>",
        },
        {
          xml: alertaCap({
            identifier: 'X-5',
            msgType: 'Update',
            references: 'otro,NADA-1,2026-11-28T18:00:00-06:00',
          }),
          status: 404,
          mensaje:
            'La alerta CAP referida en <references> no se recibió antes: no hay ejercicio que actualizar',
        },
        {
          xml: alertaCap({ identifier: 'X-6' }).replace(
            CAP_NS,
            'urn:oasis:names:tc:emergency:cap:1.1',
          ),
          status: 400,
          mensaje:
            'El documento no es una alerta CAP 1.2: el elemento raíz debe ser <alert> del espacio de nombres urn:oasis:names:tc:emergency:cap:1.2 (llegó <alert> del espacio urn:oasis:names:tc:emergency:cap:1.1)',
        },
        {
          xml: alertaCap({ identifier: 'X-7' }).replace('</alert>', ''),
          status: 400,
          mensaje: 'La alerta CAP no es XML bien formado',
        },
        {
          // Billion laughs: refused at its DOCTYPE, before any entity is declared or expanded.
          xml: alertaCap({
            identifier: 'X-8',
            headline: '&lol3;',
            prologo:
              '<!DOCTYPE alert [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>',
          }),
          status: 400,
          mensaje:
            'La alerta CAP trae una declaración DOCTYPE o entidades: no se aceptan (CAP 1.2 no las usa)',
        },
        {
          // XXE: an external entity naming a local file.
          xml: alertaCap({
            identifier: 'X-9',
            headline: '&xxe;',
            prologo: '<!DOCTYPE alert [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
          }),
          status: 400,
          mensaje:
            'La alerta CAP trae una declaración DOCTYPE o entidades: no se aceptan (CAP 1.2 no las usa)',
        },
        {
          xml: alertaCap({ identifier: 'X-10' }).replace(
            '</info>',
            `${'<parameter><valueName>n</valueName><value>v</value></parameter>'.repeat(6000)}</info>`,
          ),
          status: 413,
          mensaje: 'La petición excede el tamaño máximo permitido',
        },
        {
          xml: JSON.stringify({ identifier: 'X-11' }),
          tipo: 'application/json',
          status: 400,
          mensaje:
            'El cuerpo debe ser el XML de una alerta CAP 1.2 (Content-Type: application/xml)',
        },
      ];
      const antes = [await cuenta('ejercicios'), await cuenta('alertas_cap')];
      for (const c of casos) {
        const r = await enviarCap(api, operador, c.xml, c.tipo);
        expect(r.status, c.mensaje).toBe(c.status);
        expect(r.body.mensaje, c.mensaje).toContain(c.mensaje);
      }
      expect([await cuenta('ejercicios'), await cuenta('alertas_cap')]).toEqual(antes);
      // A refused alert may come again corrected: its identity was not taken.
      const corregida = await enviarCap(api, operador, alertaCap({ identifier: 'X-4' }));
      expect(corregida.status, JSON.stringify(corregida.body)).toBe(200);
    });

    it('sin sesión 401, rol consulta 403, clave sin alcance cap 403', async () => {
      const xml = alertaCap({ identifier: 'R-1' });
      expect((await enviarCap(api, undefined, xml)).status).toBe(401);
      expect((await enviarCap(api, consulta, xml)).status).toBe(403);
      const sinCap = await crearClave('Sin CAP', 'lectura,crear_simulacros');
      const r = await enviarCap(api, sinCap, xml);
      expect(r.status).toBe(403);
      expect(r.body.mensaje).toBe("La clave de API no tiene el alcance 'cap' que pide esta acción");
      expect(
        await api.ctx.db.kysely
          .selectFrom('alertas_cap')
          .selectAll()
          .where('identificador', '=', 'R-1')
          .execute(),
      ).toEqual([]);
    });
  });
});
