import { CrearEjercicioSchema } from '@pregon/contract/api/ejercicios';
import { msg } from '@pregon/contract/messages';
import { ETIQUETA_MODO, TIPO_SMS, TIPO_WHATSAPP } from '@pregon/contract/constants';
import { modoDe, sinMarca } from '@pregon/contract/rules/modo';
import { accionVisible } from '@pregon/contract/rules/whatsapp';
import { equipoParaTipo } from '@pregon/contract/rules/equipment';
import { fechaHoraDe } from '@pregon/contract/rules/zona-horaria';
import { PROCEDENCIA_CAP } from '@pregon/contract/rules/aprobacion';
import { instanteEnZona } from '@pregon/contract/rules/programacion';
import {
  CAP_NS,
  ErrorCap,
  GEOCODE_INEGI,
  MODO_POR_STATUS,
  STATUS_POR_MODO,
  claveInegi,
  estadosDeAreas,
  fechaCap,
  infoPreferida,
  leerAlertaCap,
  textoDeInfo,
  type AlertaCap,
  type InfoCap,
} from '@pregon/contract/rules/cap';
import { marcaSimulacro, zonaProducto } from '../config.ts';
import { error, HttpError } from '@pregon/servidor/http/errores';
import { auditar } from '../repositories/auditoria.ts';
import * as repo from '../repositories/cap.ts';
import { analizarDestinatarios, type Consultor } from '../repositories/ejercicios.ts';
import {
  avisoMarca,
  crear,
  detener,
  editar,
  ejercicioOError,
  generarEn,
  idsCategorias,
  type ActorConRoles,
  type AlFinal,
  type CtxEjercicios,
} from './ejercicios.ts';
import { escribirElementos, leerXml, type ElementoXml } from './cap-xml.ts';
import { solicitarSiRequiere } from './aprobaciones.ts';

// Issue 47.4: CAP 1.2 in and out. Out: any exercise as an alert whose identity (sender and
// identifier) never changes, its status from the mode, one <info> in es-MX with the message and
// one <area> per state (the INEGI code as geocode for Mexico's). In: an alert creates, edits or
// stops an exercise, and never starts one.

/** The sender of the alerts this installation exports (CAP_REMITENTE, default 'pregon'; no
 * spaces, commas, '<' or '&', as CAP demands). */
export function remitenteCap(env: NodeJS.ProcessEnv = process.env): string {
  const r = env.CAP_REMITENTE?.trim();
  return r && !/[\s,<&]/.test(r) ? r : 'pregon';
}

/** The identifier an exercise's alert always has. */
export const identificadorCap = (id: number) => `pregon-ejercicio-${id}`;

/** The text a drill sends as CAP describes it: an SMS's text, a WhatsApp text or template; calls
 * and quizzes carry their message in audio (none here). */
function descripcion(tipo: number, accion: string): string | undefined {
  if (tipo === TIPO_SMS) return accion.trim() || undefined;
  if (tipo === TIPO_WHATSAPP) return accionVisible(accion).trim() || undefined;
  return undefined;
}

/** GET /ejercicio/{id}/cap.xml: the exercise as a CAP 1.2 alert. */
export async function exportarCap(ctx: CtxEjercicios, id: number): Promise<string> {
  const k = ctx.db.kysely;
  const e = await ejercicioOError(k, ctx, id);
  const ids = e.estados ? idsCategorias(e.estados) : [e.id_estado];
  const estados = await repo.estadosConCodigo(k, ids);
  const zona = zonaProducto();
  const modo = modoDe(e.modo);
  const areas: ElementoXml[] = estados.map((s) => {
    const clave = s.codigo_iso === 'MX' ? claveInegi(s.estado) : null;
    return [
      'area',
      [
        ['areaDesc', s.estado],
        clave
          ? [
              'geocode',
              [
                ['valueName', GEOCODE_INEGI],
                ['value', clave],
              ],
            ]
          : ['geocode', undefined],
      ],
    ];
  });
  const inicio = instanteEnZona(e.fecha_ini, e.hora_ini, zona);
  const alerta: ElementoXml[] = [
    ['identifier', identificadorCap(e.id_ejercicio)],
    ['sender', remitenteCap()],
    ['sent', fechaCap(Number(e.creado), zona)],
    ['status', STATUS_POR_MODO[modo]],
    ['msgType', 'Alert'],
    ['scope', 'Public'],
    ['note', msg(ETIQUETA_MODO[modo])],
    [
      'info',
      [
        ['language', 'es-MX'],
        ['category', 'Safety'],
        ['event', e.titulo],
        ['urgency', 'Unknown'],
        ['severity', 'Unknown'],
        ['certainty', 'Unknown'],
        ['onset', inicio === null ? undefined : fechaCap(inicio, zona)],
        ['senderName', 'Pregón'],
        ['headline', e.titulo],
        ['description', descripcion(e.id_tipo_ejercicio, e.accion)],
        ...areas,
      ],
    ],
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<alert xmlns="${CAP_NS}">\n${escribirElementos(alerta)}</alert>\n`;
}

/** What POST /cap/ did. */
export interface ResultadoCap {
  id_ejercicio: number;
  accion: 'creado' | 'actualizado' | 'detenido';
  mensaje: string;
  aviso_marca?: string;
}

/** A 400 about a CAP element, its message naming it. */
const errorElemento = (e: ErrorCap) => new HttpError(400, e.message, e.elemento);

/** Reads an alert: XML (saxes) then CAP 1.2's rules; a 400 naming the element otherwise. */
export function leerCap(xml: string): AlertaCap {
  const raiz = leerXml(xml);
  try {
    return leerAlertaCap(raiz);
  } catch (e) {
    if (e instanceof ErrorCap) throw errorElemento(e);
    throw e;
  }
}

/** Longest message text an alert gives its drill in full; past it the description is left out
 * (headline and instruction are what a phone needs; the CAP keeps the rest). */
export const LARGO_TEXTO_CAP = 640;

/** The creation body an alert's info gives (as the SPEC's client would send it), validated by
 * the same schema as POST /ejercicio/. */
async function cuerpoDeAlerta(
  ctx: CtxEjercicios,
  a: AlertaCap,
  info: InfoCap,
  idEquipo: number | null = null,
) {
  const k = ctx.db.kysely;
  const areas = await estadosDeAreasInfo(k, info);
  if ('error' in areas) throw errorElemento(areas.error);
  const idsEstados = areas.estados.map((s) => s.id_estado);
  const equipo = idEquipo ?? (await equipoCap(ctx));
  const modo = MODO_POR_STATUS[a.status]!;
  // A drill marker inside the text (a drill's own alert sent back) is not repeated: the api puts
  // one at the start.
  const sinMarcas = (t: string) =>
    t
      .split('\n')
      .map((l) => sinMarca(l, marcaSimulacro()))
      .join('\n');
  let texto = sinMarcas(textoDeInfo(info));
  if (texto.length > LARGO_TEXTO_CAP)
    texto = sinMarcas(textoDeInfo({ ...info, description: undefined }));
  if (texto.length > LARGO_TEXTO_CAP)
    throw error(400, 'capTextoLargo', { largo: texto.length, max: LARGO_TEXTO_CAP }, 'info');
  // The drill's date: the info's onset (else effective, else sent), never in the past.
  const cuando = Math.max(info.onset ?? info.effective ?? a.sent, Date.now());
  const { fecha, hora } = fechaHoraDe(cuando, zonaProducto());
  const crudo = {
    titulo: (info.headline ?? info.event).slice(0, 200),
    tipo_ejercicio: String(TIPO_SMS),
    fecha_ini: fecha,
    hora_ini: hora,
    equipo: String(equipo),
    tiempo: '',
    numero_puertos: '',
    puerto_ini: '',
    puerto_fin: '',
    accion: texto,
    estado: String(idsEstados[0]),
    estados: idsEstados.join(','),
    categorias: (await repo.idsCategorias(k)).join(','),
    modo,
    motivo_alerta:
      modo === 'real' ? msg('capMotivo', { identificador: a.identifier, remitente: a.sender }) : '',
  };
  const r = CrearEjercicioSchema.safeParse(crudo);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const campo = String(issue.path[0] ?? '');
    const elemento =
      { titulo: 'info/headline', accion: 'info/description', estado: 'info/area' }[campo] ?? 'info';
    throw new HttpError(400, issue.message, elemento);
  }
  return r.data;
}

/** The device CAP alerts are sent with: CAP_EQUIPO when set, else the first active device whose
 * alias fits SMS. */
async function equipoCap(ctx: CtxEjercicios): Promise<number> {
  const fijo = Number(process.env.CAP_EQUIPO);
  if (Number.isInteger(fijo) && fijo > 0) return fijo;
  const equipos = await repo.equiposActivos(ctx.db.kysely);
  const e = equipos.find((q) => equipoParaTipo(q.alias, TIPO_SMS));
  if (!e) throw error(409, 'capSinEquipo', undefined, 'equipo');
  return Number(e.id_equipo);
}

/** The Mexican states an info's areas name, with their ids, or why they name none: what an
 * alert's exercise aims at (cuerpoDeAlerta) and what a feed's rule matches (estadosDeInfo). */
async function estadosDeAreasInfo(
  k: Consultor,
  info: InfoCap,
): Promise<{ estados: { id_estado: number; estado: string }[] } | { error: ErrorCap }> {
  const mexico = await repo.estadosMexico(k);
  const r = estadosDeAreas(
    info.areas,
    mexico.map((s) => s.estado),
  );
  if ('error' in r) return r;
  return { estados: r.estados.map((n) => mexico.find((s) => s.estado === n)!) };
}

/** The names of the Mexican states an info's areas name (none when they name none). */
export async function estadosDeInfo(ctx: CtxEjercicios, info: InfoCap): Promise<string[]> {
  const r = await estadosDeAreasInfo(ctx.db.kysely, info);
  return 'error' in r ? [] : r.estados.map((s) => s.estado);
}

/** POST /cap/: an Alert creates the exercise (recipients generated, never started), an Update
 * edits the exercise its references name (before it started), a Cancel stops it. Each alert's
 * identity (sender, identifier) acts once: a repeat is 409. */
export async function recibirCap(
  ctx: CtxEjercicios,
  actor: ActorConRoles,
  xml: string,
): Promise<ResultadoCap> {
  return recibirAlerta(ctx, actor, leerCap(xml));
}

/** How an alert read elsewhere than POST /cap/ (a feed) is taken. */
export interface OpcionesAlerta {
  /** An Update whose references name no alert received creates, as an Alert would (a feed read
   * in the middle of a storm; POST /cap/ answers 404). */
  huerfanaComoAlerta?: boolean;
  /** The device its exercise uses (null: CAP_EQUIPO or the first SMS device). */
  idEquipo?: number | null;
}

/** An alert already read: POST /cap/'s rules (see recibirCap). `huerfana` says an orphan Update
 * was taken as an Alert. */
export async function recibirAlerta(
  ctx: CtxEjercicios,
  actor: ActorConRoles,
  a: AlertaCap,
  opciones: OpcionesAlerta = {},
): Promise<ResultadoCap & { huerfana?: boolean }> {
  if (!MODO_POR_STATUS[a.status])
    throw error(400, 'capStatusSinModo', { status: a.status }, 'status');
  if (a.msgType !== 'Alert' && a.msgType !== 'Update' && a.msgType !== 'Cancel')
    throw error(400, 'capMsgTypeNoSoportado', { msgType: a.msgType }, 'msgType');
  const info = infoPreferida(a.infos);
  if (a.msgType !== 'Cancel' && !info) throw error(400, 'capSinInfo', undefined, 'info');
  const k = ctx.db.kysely;
  const previa = await repo.alertaPorIdentidad(k, a.sender, a.identifier);
  const duplicada = (id_ejercicio: number | null | undefined) =>
    error(
      409,
      'capDuplicada',
      { identificador: a.identifier, remitente: a.sender, id_ejercicio: id_ejercicio ?? '-' },
      'identifier',
    );
  if (previa) throw duplicada(previa.id_ejercicio);
  let referido: number | null = null;
  let huerfana = false;
  if (a.msgType !== 'Alert') {
    referido = await repo.ejercicioReferido(k, a.references);
    if (referido === null && a.msgType === 'Update' && opciones.huerfanaComoAlerta) huerfana = true;
    else if (referido === null)
      throw error(
        404,
        'capReferenciaDesconocida',
        { accion: a.msgType === 'Update' ? 'actualizar' : 'detener' },
        'references',
      );
  }
  const cuerpo =
    info && a.msgType !== 'Cancel'
      ? await cuerpoDeAlerta(ctx, a, info, opciones.idEquipo ?? null)
      : null;
  // The alert's identity is claimed, with the exercise it acted on, in the transaction that acts
  // on it: both commit or neither does (a refusal, an error or a crash leaves the identity free
  // for the alert to come again). Two deliveries at once: the second's claim waits on the first
  // (the unique key) and, once it commits, finds the identity taken: 409, all of it undone.
  const reclamar: AlFinal = async (trx, id_ejercicio) => {
    const reclamo = await repo.reclamarIdentidad(trx, {
      remitente: a.sender,
      identificador: a.identifier,
      enviado: a.sentTexto,
      estado_cap: a.status,
      tipo_mensaje: a.msgType,
      recibido: Date.now(),
      recibido_por: actor.usuario,
      id_ejercicio,
    });
    // Taken by a delivery that committed meanwhile: its row (and exercise) is visible now.
    if (reclamo === null)
      throw duplicada((await repo.alertaPorIdentidad(trx, a.sender, a.identifier))?.id_ejercicio);
    await auditar(trx, actor, 'recibir_cap', 'ejercicio', id_ejercicio, {
      identificador: a.identifier,
      remitente: a.sender,
      status: a.status,
      msgType: a.msgType,
    });
  };
  const r = await aplicar(
    ctx,
    actor,
    huerfana ? { ...a, msgType: 'Alert' } : a,
    cuerpo,
    referido,
    reclamar,
  );
  return huerfana ? { ...r, huerfana } : r;
}

/** Acts on a checked alert. */
async function aplicar(
  ctx: CtxEjercicios,
  actor: ActorConRoles,
  a: AlertaCap,
  cuerpo: Awaited<ReturnType<typeof cuerpoDeAlerta>> | null,
  referido: number | null,
  reclamar: AlFinal,
): Promise<ResultadoCap> {
  if (a.msgType === 'Cancel') {
    await detener(ctx, actor, referido!, reclamar);
    return {
      id_ejercicio: referido!,
      accion: 'detenido',
      mensaje: msg('capCancelada', { id_ejercicio: referido! }),
    };
  }
  const b = cuerpo!;
  const marca = avisoMarca(b, b.modo ?? 'simulacro');
  if (a.msgType === 'Update') {
    const e = await ejercicioOError(ctx.db.kysely, ctx, referido!);
    if (e.iniciado !== null || e.en_proceso || e.completado)
      throw error(409, 'capIniciadoNoEditable', { id_ejercicio: referido! }, 'references');
    // The edit voided any approval (what was approved is no longer what would go): asked again,
    // in the edit's transaction.
    await editar(ctx, actor, referido!, b, async (trx, id) => {
      await solicitarSiRequiere(trx, ctx, actor, id);
      await reclamar(trx, id);
    });
    return {
      id_ejercicio: referido!,
      accion: 'actualizado',
      mensaje: msg('capActualizada', { id_ejercicio: referido! }),
      ...marca,
    };
  }
  // Issue 47.2: a CAP alert never starts by itself; it lands in 'Pendiente de aprobación', a
  // drill under the approval threshold too (its procedencia says it came by CAP), asked by the
  // key's account. The exercise, its recipients, the request and the alert's identity are one
  // transaction.
  let pendiente = false;
  const id = await crear(
    ctx,
    actor,
    b,
    async (trx, id) => {
      await repo.fijarProcedencia(trx, id, PROCEDENCIA_CAP);
      return { procedencia: PROCEDENCIA_CAP };
    },
    async (trx, id) => {
      await generarEn(trx, ctx, actor, {
        ejercicio: id,
        estado: b.estado,
        estados: b.estados,
        categorias: b.categorias,
      });
      pendiente = await solicitarSiRequiere(trx, ctx, actor, id);
      await reclamar(trx, id);
    },
  );
  await analizarDestinatarios(ctx.db.kysely, ctx.db.engine);
  ctx.eventos.emit('ejercicio', id);
  return {
    id_ejercicio: id,
    accion: 'creado',
    mensaje: msg(pendiente ? 'capCreadaPendiente' : 'capCreada', { id_ejercicio: id }),
    ...marca,
  };
}
