import type { z } from 'zod';
import {
  CANAL_DE_PROTOCOLO,
  esLlamada,
  TIPO_CUESTIONARIO,
  TIPO_LLAMADA,
  TIPO_SMS,
  tipoPorId,
  MODO_DEFECTO,
  ROL_ADMINISTRADOR,
  type Canal,
  type ModoEjercicio,
  type Orden,
  type Protocolo,
} from '@pregon/contract/constants';
import { conMarca, llevaMarca, modoDe, sinMarca } from '@pregon/contract/rules/modo';
import { msg } from '@pregon/contract/messages';
import { conteoSemaforo } from '@pregon/contract/rules/alcance';
import {
  admiteSeguimiento,
  celdasSeguimiento,
  conteoGrupos,
  copiaSeguimiento,
  esGrupoRespuesta,
  etiquetaGrupo,
} from '@pregon/contract/rules/seguimiento';
import { accionesFila } from '@pregon/contract/rules/row-actions';
import { accionDeInicio, faseDe } from '@pregon/contract/rules/ciclo-ejercicio';
import { planInicio } from '@pregon/contract/rules/start';
import { estatusEjercicio } from '@pregon/contract/rules/exercise-list';
import { smsTotal } from '@pregon/contract/rules/sms';
import { RESPALDO_POR_CANAL, respaldoDeCompanero } from '@pregon/contract/rules/respaldo';
import { accionDePlantilla } from '@pregon/contract/rules/whatsapp';
import { canalDeBaja } from '@pregon/contract/rules/bajas';
import { columnasRecordatorio } from '@pregon/contract/rules/recordatorios';
import { errorPuertos, puertosDeRango } from '@pregon/contract/rules/capacidad';
import { errorVariosPaises, paisesDeSeleccion } from '@pregon/contract/rules/paises-seleccion';
import { instanteEnZona } from '@pregon/contract/rules/programacion';
import { esperaVentana, ventanaDe, zonaDeEstado } from '@pregon/contract/rules/ventanas';
import { categoriaPrueba, marcaSimulacro, zonaProducto } from '../config.ts';
import { exigirVersionUsable } from './plantillas-mensaje.ts';
import { tomarVersion } from '../repositories/versiones.ts';
import type {
  CrearEjercicio,
  EjercicioFila,
  GenerarSchema,
  IniciarSchema,
  PausaSchema,
  ProgramarSchema,
} from '@pregon/contract/api/ejercicios';
import type { Sesion } from '@pregon/servidor/auth/tokens';
import type { Contexto } from '../contexto.ts';
import { ahora } from '@pregon/db/database';
import { error, HttpError, noEncontrado } from '@pregon/servidor/http/errores';
import { auditar } from '../repositories/auditoria.ts';
import * as repo from '../repositories/ejercicios.ts';
import * as quiz from '../repositories/quiz.ts';
import * as bajas from '../repositories/bajas.ts';
import { leerParaCanal } from '../repositories/equipos.ts';
import { descifrarCredenciales } from '@pregon/db/credenciales';
import { plantillasAprobadas } from './plantillas-whatsapp.ts';
import type {
  audioEnPbx,
  comprobarEquipo,
  contextoEnAsterisk,
  HuellaAudio,
  promptsEnPbx,
} from '@pregon/despacho';
import type { vincularAudiosCuestionario } from './quiz-audios.ts';
import {
  aprobacionFila,
  avisoPrevioAprobacion,
  estadoEjercicio,
  exigirTransicion,
  puedeAprobar,
  SIN_APROBACION,
} from './aprobaciones.ts';
import {
  avisoAudioLargo,
  avisoCuestionarioLargo,
  contextoLlamada,
  contextoQuiz,
  IDIOMA_DEFECTO,
  PROMPTS_SISTEMA,
} from '@pregon/contract/rules/dialplan';
import type { AudioFijado, Consultor, EjercicioCompleto } from '../repositories/ejercicios.ts';
import { accionConEncuesta, encuestasDe, guardarEncuesta } from './respuestas.ts';
import {
  condicionesRespuesta,
  conteoSeguimientoRespuestas,
} from '../repositories/respuestas-vigentes.ts';

// The PBX software's name in the agent's paths (ARCHITECTURE: GET /config/ reports it).
const SOFTWARE_PBX = 'asterisk';

/** What the exercise services need of the context (the benchmarks build just this). */
export type CtxEjercicios = Pick<Contexto, 'db' | 'eventos'> & {
  /** The pre-start probes (services/sondas-inicio.ts sondasRed in the composition roots); a
   * context without them can start only with no probe asked (equipoMs 0, no pbxBase). */
  sondas?: SondasInicio;
};

/** The network probes a start asks for before it starts (issue 44.5): a port given to the
 * service with its context, so the service does no network I/O of its own. */
export interface SondasInicio {
  /** Whether the device's gateway answers (despacho/comprobacion.ts comprobarEquipo). */
  equipo: typeof comprobarEquipo;
  /** Whether an audio is on the telephony server, and its fingerprint. */
  audio: typeof audioEnPbx;
  /** Asterisk's own prompts missing for a language. */
  prompts: typeof promptsEnPbx;
  /** Whether the device's Asterisk has the exercise's context loaded. */
  contexto: typeof contextoEnAsterisk;
  /** Binds a questionnaire's questions to the agent's audio files (services/quiz-audios.ts). */
  vincularAudios: typeof vincularAudiosCuestionario;
}

/** The context's probes, or an error naming what is missing (a programming error: a composition
 * root that asks for probes gives them). */
function sondasDe(ctx: CtxEjercicios): SondasInicio {
  if (!ctx.sondas) throw new Error('El contexto no trae las sondas de inicio (sondasRed)');
  return ctx.sondas;
}

/** Who acts, for the audit log. */
export type Actor = Pick<Sesion, 'id_usuario' | 'usuario'>;

const bandera = (n: number): '0' | '1' => (n ? '1' : '0');

/** The 404 of a missing exercise. */
export const ejercicioNoEncontrado = (id: number) => noEncontrado(`Ejercicio ${id}`);

/** Reads an exercise (locked on PostgreSQL inside a transaction) or throws 404. */
export async function ejercicioOError(
  k: Consultor,
  ctx: CtxEjercicios,
  id: number,
  bloquear = false,
): Promise<EjercicioCompleto> {
  const e = await repo.obtenerEjercicio(k, ctx.db.engine, id, bloquear);
  if (!e) throw ejercicioNoEncontrado(id);
  return e;
}

/** Category ids of an exercise's comma-separated `categorias` column. */
export const idsCategorias = (texto: string): number[] =>
  texto
    .split(',')
    .map((c) => Number(c.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);

/** The SMS an exercise costs: its drill's, plus the acknowledgements sent for its replies
 * (issue 46.2), which sms_acuses also gives apart. */
const smsConAcuses = (total: number | null, e: { sms_acuses?: number | string | null }) => {
  const acuses = Number(e.sms_acuses ?? 0);
  return total === null ? { sms_total: null } : { sms_total: total + acuses, sms_acuses: acuses };
};

/** A list row of SPEC 3 from an exercise, with the actions the user may use. */
export function filaLista(
  e: EjercicioCompleto,
  soloLectura: boolean,
  espera: EjercicioFila['espera_ventana'] = null,
  quien?: ActorConRoles,
): EjercicioFila {
  const flags = {
    completado: bandera(e.completado),
    en_proceso: bandera(e.en_proceso),
    en_pausa: bandera(e.en_pausa),
  };
  const detenido = bandera(e.detenido);
  const archivado = bandera(e.archivado);
  return {
    id_ejercicio: e.id_ejercicio,
    ejercicio: e.titulo,
    titulo: e.titulo,
    accion: e.accion,
    alias: e.alias,
    serial: e.serial,
    url: e.url,
    fecha_ini: e.fecha_ini,
    hora_ini: e.hora_ini,
    tipo_ejercicio: tipoPorId(e.id_tipo_ejercicio)?.etiqueta ?? e.etiqueta_tipo,
    id_tipo_ejercicio: e.id_tipo_ejercicio,
    ...flags,
    detenido,
    archivado,
    estatus: estatusEjercicio({ completado: flags.completado, detenido }),
    id_equipo: e.id_equipo,
    protocolo: e.protocolo,
    tiempo: e.tiempo,
    reintentos: e.reintentos,
    espera_reintento: e.espera_reintento,
    vigencia: e.vigencia,
    espera_equipo_s: e.espera_equipo_s ?? null,
    destinatarios: Number(e.destinatarios),
    ...smsConAcuses(smsTotal(e.id_tipo_ejercicio, e.accion, Number(e.destinatarios)), e),
    estado: e.id_estado,
    estados: e.estados ? idsCategorias(e.estados) : [e.id_estado],
    categorias: e.categorias,
    orden: e.orden,
    numero_puertos: e.numero_puertos,
    puerto_ini: e.puerto_ini,
    puerto_fin: e.puerto_fin,
    puertos_equipo: Number(e.puertos_equipo),
    tasa_equipo: Number(e.tasa_equipo),
    motivo_pausa: e.motivo_pausa,
    inicio_automatico: e.inicio_automatico === 1,
    inicio_programado: e.inicio_programado === null ? null : Number(e.inicio_programado),
    inicio_nota: e.inicio_nota,
    ventana_inicio: e.ventana_inicio,
    ventana_fin: e.ventana_fin,
    espera_ventana: espera,
    en_espera: enEspera(e),
    creado: e.creado,
    iniciado: e.iniciado,
    terminado: e.terminado,
    origen_id: e.origen_id,
    recordatorio_minutos: e.recordatorio_minutos,
    recordatorios_max: e.recordatorios_max,
    recordatorio_de: e.recordatorio_de,
    recordatorio_n: e.recordatorio_n,
    respaldo_equipo: e.respaldo_equipo ?? null,
    modo: modoDe(e.modo),
    motivo_alerta: modoDe(e.modo) === 'real' ? e.ignora_bajas_motivo : null,
    version: Number(e.version),
    ...respaldoDeCompanero({ id_tipo_ejercicio: e.respaldo_tipo, accion: e.respaldo_accion }),
    ...aprobacionFila(e),
    acciones: accionesFila(
      {
        ...flags,
        id_tipo_ejercicio: e.id_tipo_ejercicio,
        iniciado: e.iniciado,
        archivado,
        ...aprobacionFila(e),
      },
      { soloLectura, puedeAprobar: !!quien && puedeAprobar(e, quien) },
    ),
  };
}

/** Every exercise as list rows; 'consulta' users get read-only actions. */
export async function listar(
  ctx: CtxEjercicios,
  sesion: Pick<Sesion, 'role'> & Partial<Pick<Sesion, 'id_usuario' | 'usuario'>>,
) {
  const soloLectura = !sesion.role.some((r) => r === 'administradores' || r === 'operadores');
  const filas = await repo.listarEjercicios(ctx.db.kysely);
  const [esperas, encuestas] = await Promise.all([
    esperasVentana(ctx, filas),
    encuestasDe(ctx.db.kysely),
  ]);
  return filas.map((e) => ({
    ...filaLista(
      e,
      soloLectura,
      esperas.get(e.id_ejercicio) ?? null,
      sesion.id_usuario !== undefined && sesion.usuario !== undefined
        ? { id_usuario: sesion.id_usuario, usuario: sesion.usuario, role: sesion.role }
        : undefined,
    ),
    encuesta: encuestas.get(e.id_ejercicio) ?? null,
  }));
}

/** For the exercises with a calling window not yet completed: their pending recipients outside it
 * now and when their windows open, from one query of pending recipients by exercise and state. */
async function esperasVentana(ctx: CtxEjercicios, filas: readonly EjercicioCompleto[]) {
  const conVentana = filas.filter((e) => e.completado === 0 && ventanaDe(e));
  const r = new Map<number, NonNullable<EjercicioFila['espera_ventana']>>();
  if (!conVentana.length) return r;
  const pendientes = await repo.pendientesPorEstado(
    ctx.db.kysely,
    conVentana.map((e) => e.id_ejercicio),
  );
  const ahora = Date.now();
  for (const e of conVentana) {
    const espera = esperaVentana(
      ventanaDe(e),
      ahora,
      pendientes
        .filter((p) => p.id_ejercicio === e.id_ejercicio)
        .map((p) => ({
          zona: zonaDeEstado(
            { estado: p.estado ?? '', zona_horaria: p.zona_horaria },
            zonaProducto(),
          ),
          pendientes: Number(p.n),
        })),
    );
    r.set(e.id_ejercicio, { esperan: espera.esperan, abre: espera.abre, ultima: espera.ultima });
  }
  return r;
}

/** The states a drill aims at (issue 24.5): the list when given, else the SPEC's one `estado`. */
const estadosDe = (b: { estado: number; estados?: readonly number[] }): number[] =>
  b.estados?.length ? [...b.estados] : [b.estado];

/** How the states are stored: id_estado the first (the SPEC's field), estados the list when there
 * is more than that one. */
function columnasEstados(b: { estado: number; estados?: readonly number[] }) {
  const lista = estadosDe(b);
  return {
    id_estado: lista[0]!,
    estados: lista.length > 1 || lista[0] !== b.estado ? lista.join(',') : null,
  };
}

/** Refuses ids that do not exist: 400 naming the field. */
async function exigirReferencias(
  k: Consultor,
  refs: {
    equipo?: number;
    estado: number;
    estados?: readonly number[];
    varios_paises?: boolean;
    categorias: readonly number[];
  },
) {
  const comprobar = async (
    tabla: 'equipos' | 'estados' | 'categorias',
    campo: string,
    ids: readonly number[],
  ) => {
    const faltan = await repo.idsInexistentes(k, tabla, ids);
    if (faltan.length > 0) {
      throw error(400, 'referenciaInexistente', { campo, valor: faltan.join(',') }, campo);
    }
  };
  if (refs.equipo !== undefined) await comprobar('equipos', 'equipo', [refs.equipo]);
  await comprobar('estados', 'estado', [refs.estado]);
  if (refs.estados) await comprobar('estados', 'estados', refs.estados);
  await comprobar('categorias', 'categorias', refs.categorias);
  // Issue 48.1: a national drill stays national unless more countries are asked for.
  const ids = estadosDe(refs);
  const varios = errorVariosPaises(
    paisesDeSeleccion(await repo.estadosConPais(k, ids), ids),
    refs.varios_paises === true,
  );
  if (varios) throw new HttpError(400, varios.mensaje, varios.campo);
}

/** The instant fecha + hora name in the product's time zone, for a scheduled start: a 400 naming
 * the field when they are not a date and hour, or already past. */
function instanteProgramado(fecha: string, hora: string): number {
  const zona = zonaProducto();
  const ms = instanteEnZona(fecha, hora, zona);
  if (ms === null)
    throw error(
      400,
      'campoInvalido',
      { campo: 'fecha_ini', detalle: `${fecha} ${hora}` },
      'fecha_ini',
    );
  if (ms <= Date.now()) throw error(400, 'inicioYaPaso', { fecha, hora, zona }, 'hora_ini');
  return ms;
}

/** What creating an exercise takes: the body, its scheduled start optional (off). */
export type CuerpoCrear = Omit<CrearEjercicio, 'inicio_automatico' | 'varios_paises'> & {
  inicio_automatico?: boolean;
  varios_paises?: boolean;
};

/** Who creates or edits: a real alert's mode needs the administrators' role. */
export type ActorConRoles = Actor & Partial<Pick<Sesion, 'role'>>;

/**
 * Issue 47.1: the mode a create or edit body leaves (absent: the exercise's own when editing,
 * else 'simulacro', what the SPEC's client creates). Choosing 'real' takes an administrator (403
 * naming modo otherwise, as issue 46.4's mark did).
 */
function modoDelCuerpo(b: CuerpoCrear, actor: ActorConRoles, actual?: string): ModoEjercicio {
  if (b.modo === 'real' && !actor.role?.includes(ROL_ADMINISTRADOR))
    throw error(403, 'modoRealSoloAdministrador', undefined, 'modo');
  return b.modo ?? modoDe(actual);
}

/** The drill marker's notice of the create and edit answers when the api added it. */
export function avisoMarca(b: CuerpoCrear, modo: ModoEjercicio): { aviso_marca?: string } {
  const accion = accionConEncuesta(b.tipo_ejercicio, b.accion, b.encuesta).accion;
  if (!llevaMarca(modo, b.tipo_ejercicio, accion) || !accion.trim()) return {};
  const marca = marcaSimulacro();
  return conMarca(accion, marca).agregada
    ? { aviso_marca: msg('modoMarcaAgregada', { marca }) }
    : {};
}

/** Issue 47.1: a text as a mode sends it: a drill's SMS or WhatsApp free text with the drill
 * marker; a real alert's never with it (a drill turned real loses it); a test's as written. */
export function accionDelModo(modo: ModoEjercicio, tipo: number, accion: string): string {
  const marca = marcaSimulacro();
  if (modo === 'real' && llevaMarca('simulacro', tipo, accion)) return sinMarca(accion, marca);
  return llevaMarca(modo, tipo, accion) && accion.trim() ? conMarca(accion, marca).texto : accion;
}

/** The exercise columns the create dialog's fields set (create and edit write the same); a
 * drill's SMS or WhatsApp free text begins with the drill marker (rules/modo.ts). */
function columnasFormulario(b: CuerpoCrear, modo: ModoEjercicio) {
  const llamada = esLlamada(b.tipo_ejercicio);
  const accion = accionConEncuesta(b.tipo_ejercicio, b.accion, b.encuesta).accion;
  return {
    titulo: b.titulo,
    id_tipo_ejercicio: b.tipo_ejercicio,
    fecha_ini: b.fecha_ini,
    hora_ini: b.hora_ini,
    id_equipo: b.equipo,
    tiempo: b.tiempo ?? null,
    reintentos: llamada ? (b.reintentos ?? null) : null,
    espera_reintento: llamada ? (b.espera_reintento ?? null) : null,
    vigencia: b.tipo_ejercicio === TIPO_SMS ? (b.vigencia ?? null) : null,
    espera_equipo_s: b.espera_equipo_s ?? null,
    numero_puertos: puertosDeRango(b),
    puerto_ini: b.puerto_ini,
    puerto_fin: b.puerto_fin,
    accion: accionDelModo(modo, b.tipo_ejercicio, accion),
    modo,
    ...columnasEstados(b),
    categorias: b.categorias.join(','),
    ventana_inicio: b.ventana_inicio ?? null,
    ventana_fin: b.ventana_fin ?? null,
    ...columnasRecordatorio(b),
  };
}

/** The references of a create or edit body exist and its port range fits its device (400 naming
 * the field otherwise; the SPEC's client sends 1/1/1, which every device has). */
async function exigirFormulario(k: Consultor, b: CuerpoCrear) {
  await exigirReferencias(k, b);
  const equipo = await repo.capacidadEquipo(k, b.equipo);
  const fuera = errorPuertos(b, { puertos: Number(equipo.puertos) });
  if (fuera) throw new HttpError(400, fuera.mensaje, fuera.campo);
}

/**
 * Issue 25.2: the fallback's device exists and sends its channel (a 400 naming respaldo_equipo
 * otherwise); a WhatsApp template must be one of the device's approved templates with its number
 * of parameters, read from the Cloud API as the dialog's picker reads them (a 400 naming
 * respaldo_plantilla; 502 when Meta cannot be read). Run before the write's transaction: it may
 * wait on the network.
 */
async function exigirRespaldo(ctx: CtxEjercicios, b: CuerpoCrear) {
  if (b.respaldo_equipo === undefined) return;
  const canal = b.respaldo_canal ?? 'sms';
  const campo = 'respaldo_equipo';
  const r = await repo.equipoDeRespaldo(ctx.db.kysely, b.respaldo_equipo);
  if (!r) throw error(400, 'referenciaInexistente', { campo, valor: b.respaldo_equipo }, campo);
  if (!RESPALDO_POR_CANAL[canal].protocolos.includes(r.protocolo))
    throw error(
      400,
      canal === 'sms' ? 'respaldoEquipoNoSms' : 'respaldoEquipoNoWhatsapp',
      { campo },
      campo,
    );
  const p = b.respaldo_plantilla;
  if (canal !== 'whatsapp' || !p) return;
  const equipo = await leerParaCanal(ctx.db.kysely, b.respaldo_equipo);
  if (!equipo)
    throw error(400, 'referenciaInexistente', { campo, valor: b.respaldo_equipo }, campo);
  let aprobadas;
  try {
    aprobadas = await plantillasAprobadas({
      ...equipo,
      credenciales: descifrarCredenciales(equipo.credenciales),
    });
  } catch (err) {
    throw new HttpError(502, (err as Error).message, 'respaldo_plantilla');
  }
  const t = aprobadas.find((x) => x.nombre === p.plantilla && x.idioma === p.idioma);
  const enPlantilla = { campo: 'respaldo_plantilla', plantilla: p.plantilla };
  if (!t)
    throw error(
      400,
      'respaldoPlantillaNoAprobada',
      { ...enPlantilla, idioma: p.idioma, alias: equipo.alias },
      'respaldo_plantilla',
    );
  if (t.parametros !== p.parametros.length)
    throw error(
      400,
      'respaldoPlantillaParametros',
      { ...enPlantilla, esperados: t.parametros, dados: p.parametros.length },
      'respaldo_plantilla',
    );
}

/**
 * Issue 25.2: writes the drill's fallback companion as the body asks: created, changed or removed
 * ('' or absent fields = no fallback). The companion is a hidden exercise of the fallback's
 * channel (an SMS exercise with its text, or a WhatsApp exercise with its template, stored as a
 * WhatsApp exercise stores one) on the fallback device (all its ports), with the drill's states,
 * categories and calling window; it holds no recipient until the drill leaves one not reached.
 * Returns what changed, for the audit.
 */
async function guardarRespaldo(
  trx: Consultor,
  id: number,
  b: CuerpoCrear,
  modo: ModoEjercicio = MODO_DEFECTO,
) {
  const previo = await repo.respaldoDe(trx, id);
  const canal = b.respaldo_canal ?? 'sms';
  const accion =
    canal === 'whatsapp'
      ? b.respaldo_plantilla && accionDePlantilla(b.respaldo_plantilla)
      : b.respaldo_texto;
  if (b.respaldo_equipo === undefined || accion === undefined) {
    if (previo) await repo.eliminarEjercicio(trx, previo.id_ejercicio);
    return previo ? { respaldo: null } : {};
  }
  const equipo = b.respaldo_equipo;
  const tipo = RESPALDO_POR_CANAL[canal].tipo;
  if (previo?.id_equipo === equipo && previo.id_tipo_ejercicio === tipo && previo.accion === accion)
    return {};
  const { puertos } = await repo.capacidadEquipo(trx, equipo);
  const columnas = {
    ...columnasFormulario(b, modo),
    id_tipo_ejercicio: tipo,
    id_equipo: equipo,
    accion,
    tiempo: null,
    reintentos: null,
    espera_reintento: null,
    vigencia: null,
    numero_puertos: Number(puertos),
    puerto_ini: 1,
    puerto_fin: Math.max(1, Number(puertos)),
  };
  if (previo) await repo.actualizarEjercicio(trx, previo.id_ejercicio, columnas);
  else
    await repo.insertarEjercicio(trx, {
      ...columnas,
      motivo_pausa: null,
      creado_por: null,
      creado: ahora(),
      iniciado: null,
      terminado: null,
      respaldo_de: id,
    });
  return { respaldo: { canal, equipo, accion } };
}

/** A real alert's reason, who and when (issue 46.4's columns, issue 47.1's mode 'real'). */
function columnasAlerta(modo: ModoEjercicio, motivo: string | null, actor: Actor) {
  const real = modo === 'real';
  return {
    ignora_bajas: real ? 1 : 0,
    ignora_bajas_motivo: real ? motivo : null,
    ignora_bajas_usuario: real ? actor.usuario : null,
    ignora_bajas_fecha: real ? Date.now() : null,
  };
}

/** More work inside the creating transaction (issue 47.2's correction copies the original's
 * recipients there); what it returns is added to the creation's audit row. */
export type TrasCrear = (trx: Consultor, id: number) => Promise<Record<string, unknown>>;

/** More work inside an operation's own transaction, after its audit row (issue 47.4: a CAP
 * alert's exercise, its recipients, its approval request and the alert's identity commit
 * together or not at all). */
export type AlFinal = (trx: Consultor, id: number) => Promise<void>;

/** POST /ejercicio/: validates references and creates the exercise (scheduled when asked). */
export async function crear(
  ctx: CtxEjercicios,
  actor: ActorConRoles,
  b: CuerpoCrear,
  trasCrear?: TrasCrear,
  alFinal?: AlFinal,
): Promise<number> {
  const programado = b.inicio_automatico ? instanteProgramado(b.fecha_ini, b.hora_ini) : null;
  const modo = modoDelCuerpo(b, actor);
  await exigirRespaldo(ctx, b);
  const plantilla =
    b.id_version_plantilla === undefined
      ? null
      : await exigirVersionUsable(ctx.db.kysely, b.id_version_plantilla, modo === 'real');
  const id = await ctx.db.kysely.transaction().execute(async (trx) => {
    await exigirFormulario(trx, b);
    const id = await repo.insertarEjercicio(trx, {
      ...columnasFormulario(b, modo),
      ...columnasAlerta(modo, b.motivo_alerta ?? null, actor),
      motivo_pausa: null,
      creado_por: actor.id_usuario > 0 ? actor.id_usuario : null,
      creado: ahora(),
      iniciado: null,
      terminado: null,
      inicio_automatico: programado === null ? 0 : 1,
      inicio_programado: programado,
      programado_por: programado !== null && actor.id_usuario > 0 ? actor.id_usuario : null,
      origen_id: b.origen ?? null,
    });
    const copia = b.origen !== undefined ? await copiarDeOrigen(trx, ctx, id, b) : null;
    const respaldo = await guardarRespaldo(trx, id, b, modo);
    const encuesta = await guardarEncuesta(trx, id, b);
    const mas = trasCrear ? await trasCrear(trx, id) : {};
    await auditar(trx, actor, 'crear', 'ejercicio', id, {
      ...mas,
      titulo: b.titulo,
      tipo: b.tipo_ejercicio,
      modo,
      ...(modo === 'real' ? { motivo: b.motivo_alerta } : {}),
      ...(plantilla ?? {}),
      ...respaldo,
      ...encuesta,
      ...(programado !== null ? { inicio_programado: new Date(programado).toISOString() } : {}),
      ...(copia ? { origen: b.origen, resultados: b.resultados, destinatarios: copia } : {}),
    });
    if (alFinal) await alFinal(trx, id);
    return id;
  });
  if (b.origen !== undefined) {
    await repo.analizarDestinatarios(ctx.db.kysely, ctx.db.engine);
    ctx.eventos.emit('ejercicio', id);
  }
  return id;
}

/** The recipients of `origen` a follow-up of the sets `resultados` copies, as
 * repo.copiarDestinatarios takes them: its fallback (issue 25.2) is one more attempt (whom it
 * delivered to is not copied, and its 'no entregado' set may be chosen), and a poll (issue 46.2)
 * adds the sets by answer ('No respondieron' and each option). */
export async function seleccionSeguimiento(
  k: Consultor,
  origen: { id_ejercicio: number; id_tipo_ejercicio: number },
  resultados: Parameters<typeof copiaSeguimiento>[2],
) {
  const respaldo = await repo.respaldoDe(k, origen.id_ejercicio);
  const opciones = (await encuestasDe(k, [origen.id_ejercicio])).get(origen.id_ejercicio);
  const seleccion = copiaSeguimiento(
    origen.id_tipo_ejercicio,
    respaldo?.id_tipo_ejercicio ?? null,
    resultados,
    opciones?.opciones ?? null,
  );
  return {
    seleccion,
    otras: seleccion.respuestas ? condicionesRespuesta(seleccion.respuestas) : [],
  };
}

/**
 * 'Reenviar a no alcanzados' (issue 25.1), inside the creating transaction: the source must be
 * finished, stopped or paused (409 otherwise, its row locked on PostgreSQL so a resume waits); its
 * recipients whose outcome is in the chosen sets now are copied in one INSERT…SELECT; none is a
 * 400 naming `resultados`. Returns how many were copied.
 */
async function copiarDeOrigen(
  trx: Consultor,
  ctx: CtxEjercicios,
  id: number,
  b: CuerpoCrear,
): Promise<number> {
  const origen = await repo.obtenerEjercicio(trx, ctx.db.engine, b.origen!, true);
  if (!origen) {
    throw error(
      400,
      'referenciaInexistente',
      { campo: 'origen', valor: String(b.origen) },
      'origen',
    );
  }
  if (!admiteSeguimiento(origen)) {
    throw error(409, 'seguimientoOrigenActivo', { ejercicio: origen.titulo }, 'origen');
  }
  const { seleccion, otras } = await seleccionSeguimiento(trx, origen, b.resultados ?? []);
  const n = await repo.copiarDestinatarios(
    trx,
    id,
    origen.id_ejercicio,
    seleccion,
    'telefono',
    ctx.db.engine,
    otras,
  );
  if (n === 0) throw error(400, 'seguimientoVacio', { ejercicio: origen.titulo }, 'resultados');
  await repo.actualizarEjercicio(trx, id, { destinatarios: n });
  return n;
}

/**
 * PUT /ejercicio/{id}/ (issue 26.1): writes every field of the create dialog to an exercise that
 * never started (409 once started, 409 while archived), scheduled or not as asked; the recipients
 * are generated again (in the same transaction) when its states or categories change, or when it
 * had none. Audited with the fields that changed.
 */
export async function editar(
  ctx: CtxEjercicios,
  actor: ActorConRoles,
  id: number,
  b: CuerpoCrear,
  alFinal?: AlFinal,
): Promise<{ destinatarios: number; regenerados: boolean; aviso_marca?: string }> {
  const programado = b.inicio_automatico ? instanteProgramado(b.fecha_ini, b.hora_ini) : null;
  await exigirRespaldo(ctx, b);
  const r = await ctx.db.kysely.transaction().execute(async (trx) => {
    const e = await ejercicioOError(trx, ctx, id, true);
    exigirTransicion(e, 'editar', actor, {
      trabajados: await repo.hayDestinatariosTrabajados(trx, id),
    });
    // Issue 48.3: a form loaded before someone else's save gets 409, nothing written.
    await tomarVersion(trx, 'ejercicios', id, b.version, actor);
    await exigirFormulario(trx, b);
    const modo = modoDelCuerpo(b, actor, e.modo);
    // Issue 47.3: 'Desde plantilla' while editing: an 'Alerta real' may only use an approved
    // version, as on creation (checked in the same transaction as the save).
    const plantilla =
      b.id_version_plantilla === undefined
        ? null
        : await exigirVersionUsable(trx, b.id_version_plantilla, modo === 'real');
    const motivo = modo === 'real' ? (b.motivo_alerta ?? e.ignora_bajas_motivo) : null;
    if (modo === 'real' && !motivo)
      throw error(400, 'modoRealMotivoObligatorio', undefined, 'motivo_alerta');
    const nuevas = {
      ...columnasFormulario(b, modo),
      ...(motivo !== e.ignora_bajas_motivo || modo !== modoDe(e.modo)
        ? columnasAlerta(modo, motivo, actor)
        : {}),
    };
    const antes: Record<string, unknown> = e;
    const cambios = Object.fromEntries(
      Object.entries(nuevas).filter(([k, v]) => String(antes[k] ?? '') !== String(v ?? '')),
    );
    const seleccion = ['id_estado', 'estados', 'categorias'].some((k) => k in cambios);
    // A follow-up's recipients were copied from its source's outcomes (issue 25.1): a selection
    // would replace them with everyone in the states and categories.
    if (e.origen_id !== null && seleccion)
      throw error(409, 'seguimientoSeleccionFija', {}, 'estado');
    // A mode into or out of 'Prueba' changes who the selection reaches (the test list).
    const prueba = 'modo' in cambios && (modo === 'prueba' || modoDe(e.modo) === 'prueba');
    const regenerar =
      e.origen_id === null && (seleccion || prueba || Number(e.destinatarios) === 0);
    let destinatarios = Number(e.destinatarios);
    if (regenerar) {
      await repo.borrarDestinatarios(trx, id);
      destinatarios = await repo.insertarDestinatarios(
        trx,
        id,
        estadosDe(b),
        b.categorias,
        e.orden as Orden,
        ctx.db.engine,
        modo === 'prueba' ? categoriaPrueba() : undefined,
      );
    }
    await repo.actualizarEjercicio(trx, id, {
      ...nuevas,
      destinatarios,
      inicio_automatico: programado === null ? 0 : 1,
      ...(programado !== null
        ? {
            inicio_programado: programado,
            programado_por: actor.id_usuario > 0 ? actor.id_usuario : null,
          }
        : {}),
      inicio_nota: null,
      comprobado_en: null,
      // Issue 47.2: what a second person approved (or was asked to) is no longer what would go.
      ...SIN_APROBACION,
    });
    const respaldo = await guardarRespaldo(trx, id, b, modo);
    const encuesta = await guardarEncuesta(trx, id, b);
    await auditar(trx, actor, 'modificar', 'ejercicio', id, {
      cambios: { ...cambios, ...respaldo, ...encuesta },
      ...(plantilla ?? {}),
      ...(regenerar ? { destinatarios } : {}),
      ...(programado !== null ? { inicio_programado: new Date(programado).toISOString() } : {}),
    });
    if (alFinal) await alFinal(trx, id);
    return { destinatarios, regenerados: regenerar, ...avisoMarca(b, modo) };
  });
  if (r.regenerados) await repo.analizarDestinatarios(ctx.db.kysely, ctx.db.engine);
  ctx.eventos.emit('ejercicio', id);
  return r;
}

/**
 * PUT /ejercicio/archivar/ (issue 26.1): archives an exercise that is not running nor paused (its
 * scheduled start, if any, is taken away so it never starts hidden), or restores it. Audited.
 */
export async function archivar(
  ctx: CtxEjercicios,
  actor: Actor,
  id: number,
  archivado: boolean,
): Promise<string> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const e = await ejercicioOError(trx, ctx, id, true);
    const paso = exigirTransicion(e, archivado ? 'archivar' : 'restaurar', actor);
    await repo.actualizarEjercicio(trx, id, paso.cambios);
    if (!archivado) {
      await auditar(trx, actor, 'restaurar', 'ejercicio', id);
      return;
    }
    await auditar(trx, actor, 'archivar', 'ejercicio', id, {
      ...(e.inicio_automatico ? { programado_quitado: true } : {}),
    });
  });
  ctx.eventos.emit('ejercicio', id);
  return msg(archivado ? 'ejercicioArchivadoAviso' : 'ejercicioRestaurado');
}

/**
 * DELETE /ejercicio/{id}/ (issue 26.1): deletes an exercise that never started; its recipients,
 * questionnaire and audio records go with it (foreign keys on delete cascade). 409 once it
 * started. Audited with its name and type.
 */
export async function eliminar(ctx: CtxEjercicios, actor: Actor, id: number): Promise<string> {
  const titulo = await ctx.db.kysely.transaction().execute(async (trx) => {
    const e = await ejercicioOError(trx, ctx, id, true);
    exigirTransicion(e, 'eliminar', actor);
    await repo.eliminarEjercicio(trx, id);
    await auditar(trx, actor, 'eliminar', 'ejercicio', id, {
      titulo: e.titulo,
      tipo: e.id_tipo_ejercicio,
      destinatarios: Number(e.destinatarios),
    });
    return e.titulo;
  });
  ctx.eventos.emit('ejercicio', id);
  return msg('ejercicioEliminado', { ejercicio: titulo });
}

/**
 * POST /ejercicio/generar/: replaces the recipients with one row per distinct phone of the states
 * (issue 24.5: `estados`, else the SPEC's `estado`) holding any of the categories (one
 * INSERT…SELECT in the transaction); 409 once started.
 */
export async function generar(ctx: CtxEjercicios, actor: Actor, b: CuerpoGenerar): Promise<number> {
  const total = await ctx.db.kysely.transaction().execute((trx) => generarEn(trx, ctx, actor, b));
  await repo.analizarDestinatarios(ctx.db.kysely, ctx.db.engine);
  ctx.eventos.emit('ejercicio', b.ejercicio);
  return total;
}

/** What generating recipients takes. */
export type CuerpoGenerar = Omit<z.output<typeof GenerarSchema>, 'varios_paises'> & {
  varios_paises?: boolean;
};

/** generar's work in the caller's transaction (a CAP alert's creation, issue 47.4); the caller
 * analyses the recipients and tells the listeners once it commits. */
export async function generarEn(
  trx: Consultor,
  ctx: CtxEjercicios,
  actor: Actor,
  b: CuerpoGenerar,
): Promise<number> {
  const e = await ejercicioOError(trx, ctx, b.ejercicio, true);
  await exigirReferencias(trx, b);
  exigirTransicion(e, 'generar', actor, {
    trabajados: await repo.hayDestinatariosTrabajados(trx, e.id_ejercicio),
  });
  if (e.origen_id !== null) throw error(409, 'seguimientoSeleccionFija', {}, 'estado');
  await repo.borrarDestinatarios(trx, e.id_ejercicio);
  const estados = columnasEstados(b);
  const n = await repo.insertarDestinatarios(
    trx,
    e.id_ejercicio,
    estadosDe(b),
    b.categorias,
    e.orden as Orden,
    ctx.db.engine,
    modoDe(e.modo) === 'prueba' ? categoriaPrueba() : undefined,
  );
  await repo.actualizarEjercicio(trx, e.id_ejercicio, {
    ...estados,
    categorias: b.categorias.join(','),
    destinatarios: n,
    // A scheduled start's pre-flight spoke of the recipients before these (issue 48.6): it
    // runs again at once, and until then says nothing.
    ...(e.inicio_automatico ? { inicio_nota: null, comprobado_en: null } : {}),
    // Issue 47.2: other recipients than the approver saw: asked again.
    ...SIN_APROBACION,
  });
  await auditar(trx, actor, 'generar', 'ejercicio', e.id_ejercicio, {
    total: n,
    estado: b.estado,
    ...(b.estados ? { estados: b.estados } : {}),
    categorias: b.categorias,
  });
  return n;
}

/** PUT /ejercicio/ordenar/: renumbers the pending recipients; returns how many. */
export async function ordenar(ctx: CtxEjercicios, actor: Actor, id: number, orden: Orden) {
  const total = await ctx.db.kysely.transaction().execute(async (trx) => {
    const e = await ejercicioOError(trx, ctx, id, true);
    if (e.completado) throw error(409, 'ejercicioCompletado');
    const n = await repo.renumerarPendientes(trx, id, orden, ctx.db.engine);
    await repo.actualizarEjercicio(trx, id, { orden });
    await auditar(trx, actor, 'modificar', 'ejercicio', id, { orden, renumerados: n });
    return n;
  });
  ctx.eventos.emit('ejercicio', id);
  return total;
}

/** What the pre-start checks need: the gateway timeout in ms (0 skips the device check), the PBX
 * agent's base URL (unset skips the audio check) and the caller's token to ask it with. */
export interface ComprobacionInicio {
  equipoMs: number;
  pbxBase?: string;
  /** The prompts' language the dialplan sets (PBX_IDIOMA); default 'es'. */
  idioma?: string;
  token?: string;
}

/** The refusals that need only the database (see iniciar); returns what the start writes. */
async function validarInicio(
  k: Consultor,
  ctx: CtxEjercicios,
  actor: ActorConRoles | 'sistema',
  canal: Canal,
  id: number,
  bloquear: boolean,
) {
  const e = await ejercicioOError(k, ctx, id, bloquear);
  const plan = planInicio(
    { id_tipo_ejercicio: e.id_tipo_ejercicio, accion: e.accion, tiempo: e.tiempo },
    { whatsappDisponible: e.protocolo === 'whatsapp' },
  );
  const etiqueta = tipoPorId(e.id_tipo_ejercicio)?.etiqueta ?? e.etiqueta_tipo;
  // The lifecycle decides (rules/ciclo-ejercicio.ts): completed, archived, the plan's refusal,
  // already running, and (issue 47.2) a first start still lacking its approval: the web's Start,
  // the SPEC's client and the scheduler all come through here.
  const estado = estadoEjercicio(e);
  const accion = accionDeInicio(estado);
  const reanudar = accion === 'reanudar';
  const paso = exigirTransicion(e, accion, actor, {
    plan: !plan.ok
      ? plan.mensaje
      : plan.canal !== canal
        ? msg('canalNoCorresponde', { tipo_ejercicio: etiqueta, canal })
        : null,
  });
  // Never true here (the transition refused a plan's refusal); it tells the type checker so.
  if (!plan.ok) throw new HttpError(409, plan.mensaje);
  if (!(await repo.hayDestinatarios(k, e.id_ejercicio))) throw error(409, 'sinDestinatarios');
  if (!e.equipo_activo) throw error(409, 'equipoInactivo');
  if (CANAL_DE_PROTOCOLO[e.protocolo as Protocolo] !== canal) {
    throw error(409, 'equipoNoCorresponde', { equipo: e.alias, tipo_ejercicio: etiqueta });
  }
  return { e, plan, reanudar, paso };
}

/** Refuses (409) an exercise that could not run: a quiz without questions, a question without
 * answers or audio, a call without audio, an audio the PBX agent lacks, a device that does not
 * answer. Reads only; nothing changes. */
async function exigirListo(
  ctx: CtxEjercicios,
  e: EjercicioCompleto,
  c: ComprobacionInicio,
): Promise<AudioFijado[]> {
  // Each audio slot: 0 for a call's audio, N for quiz question N.
  const audios: { pregunta: number; nombre: string }[] = [];
  if (e.id_tipo_ejercicio === 2) {
    if (!e.accion.trim()) throw error(409, 'llamadaSinAudio');
    audios.push({ pregunta: 0, nombre: e.accion.trim() });
  }
  if (e.id_tipo_ejercicio === 4) {
    const k = ctx.db.kysely;
    // Issue 45.2: questions saved in the SPEC's order name the chosen audio: bound here at the latest.
    if (c.pbxBase)
      await sondasDe(ctx).vincularAudios(ctx, e.id_ejercicio, {
        base: c.pbxBase,
        software: SOFTWARE_PBX,
        token: c.token,
        timeoutMs: c.equipoMs || 3000,
      });
    const cuestionario = await quiz.cuestionarioDeEjercicio(k, e.id_ejercicio);
    const preguntas = cuestionario ? await quiz.preguntasDe(k, cuestionario.id_cuestionario) : [];
    if (!preguntas.length) throw error(409, 'cuestionarioSinPreguntas');
    const conRespuestas = new Set(
      (await quiz.respuestasDe(k, cuestionario!.id_cuestionario)).map((r) => r.id_pregunta),
    );
    for (const p of preguntas) {
      if (!p.archivo.trim()) throw error(409, 'preguntaSinAudio', { N: p.numero });
      if (!conRespuestas.has(p.id_pregunta))
        throw error(409, 'preguntaSinRespuestas', { N: p.numero });
      audios.push({ pregunta: p.numero, nombre: p.archivo.trim() });
    }
  }
  const fijados: AudioFijado[] = [];
  if (c.pbxBase) {
    const huellas = new Map<string, HuellaAudio>();
    for (const { nombre: archivo } of audios) {
      if (huellas.has(archivo)) continue;
      const r = await sondasDe(ctx).audio(c.pbxBase, SOFTWARE_PBX, archivo, {
        timeoutMs: c.equipoMs || 3000,
        token: c.token,
      });
      if (r === 'falta') throw error(409, 'audioNoEnPbx', { archivo });
      if (typeof r === 'string') throw error(409, 'pbxNoResponde', { motivo: r, archivo });
      huellas.set(archivo, r.huella);
    }
    for (const a of audios) {
      const h = huellas.get(a.nombre);
      if (h) fijados.push({ ...a, ...h });
    }
    // Asterisk's own prompts the exercise's dialplan plays must exist in the language it sets,
    // else the caller hears silence (issue 23.6): a quiz ends with 'gracias'; a call plays none.
    const tipo = e.id_tipo_ejercicio === 2 ? 'llamadas' : e.id_tipo_ejercicio === 4 ? 'quiz' : '';
    if (tipo && PROMPTS_SISTEMA[tipo].length) {
      const idioma = c.idioma ?? IDIOMA_DEFECTO;
      const r = await sondasDe(ctx).prompts(c.pbxBase, SOFTWARE_PBX, idioma, {
        timeoutMs: c.equipoMs || 3000,
        token: c.token,
      });
      if (typeof r === 'string') throw error(409, 'idiomaNoVerificable', { idioma, motivo: r });
      const falta = r.faltan.find((f) => f.tipo === tipo);
      if (falta) throw error(409, 'promptFaltaEnPbx', { prompt: falta.prompt, idioma });
    }
  }
  if (c.equipoMs > 0) {
    const fallo = await sondasDe(ctx).equipo({ protocolo: e.protocolo, url: e.url }, c.equipoMs);
    if (fallo)
      throw error(409, 'equipoNoResponde', { equipo: e.alias, url: e.url, motivo: fallo.motivo });
    // A call or quiz whose context the device's Asterisk has not loaded would be refused for
    // every recipient ('Extension does not exist.'): refuse the start instead (issue 23.3).
    if (e.protocolo === 'asterisk' && (e.id_tipo_ejercicio === 2 || e.id_tipo_ejercicio === 4)) {
      const contexto =
        e.id_tipo_ejercicio === 2 ? contextoLlamada(e.id_ejercicio) : contextoQuiz(e.id_ejercicio);
      const { credenciales } = await ctx.db.kysely
        .selectFrom('equipos')
        .select('credenciales')
        .where('id_equipo', '=', e.id_equipo)
        .executeTakeFirstOrThrow();
      const r = await sondasDe(ctx).contexto({ url: e.url, credenciales }, contexto, c.equipoMs);
      if (r === 'falta') throw error(409, 'contextoNoCargado', { equipo: e.alias, contexto });
      // An AMI user that may originate but not read the dialplan: the Originate's own answer
      // pauses the exercise at once should the context be missing.
      if (r && r !== 'sin permiso')
        throw error(409, 'contextoNoVerificable', { equipo: e.alias, contexto, motivo: r });
    }
  }
  return fijados;
}

/**
 * POST /ejercicio/{canal}/: starts, or resumes a paused exercise (ARCHITECTURE correction 4).
 * Refusals (409, Spanish mensaje), in order: completed; a type without a channel ('API
 * {tipo_ejercicio} NO DISPONIBLE', WhatsApp only on a 'whatsapp' device); the wrong channel;
 * already running; no recipients; inactive device; a device whose protocol serves another channel;
 * then what would keep it from running (exigirListo). The network checks run outside the
 * transaction, and its checks run again under the row lock before anything is written.
 */
export async function iniciar(
  ctx: CtxEjercicios,
  actor: Actor,
  canal: Canal,
  b: z.output<typeof IniciarSchema>,
  comprobacion: ComprobacionInicio = { equipoMs: 0 },
  inicioNota: string | null = null,
): Promise<{ mensaje: string; time: number }> {
  const previo = await validarInicio(ctx.db.kysely, ctx, actor, canal, b.id_ejercicio, false);
  const audios = await exigirListo(ctx, previo.e, comprobacion);
  const r = await ctx.db.kysely.transaction().execute(async (trx) => {
    const { e, plan, reanudar, paso } = await validarInicio(
      trx,
      ctx,
      actor,
      canal,
      b.id_ejercicio,
      true,
    );
    const momento = ahora();
    await repo.actualizarEjercicio(trx, e.id_ejercicio, {
      // Running, neither paused nor waiting, no longer scheduled (the transition's columns).
      ...paso.cambios,
      iniciado: e.iniciado ?? momento,
      // Started (now, or by its schedule): what its pre-flight said is past. A scheduled start's
      // own note ('Iniciado con 3 min de retraso') is written here, with the start: written
      // after it, a reader could see the exercise started without it.
      inicio_nota: inicioNota,
    });
    // The audio it plays is fixed at its first start with an agent (a resume keeps that record).
    await repo.fijarAudios(trx, e.id_ejercicio, audios, momento);
    // Issue 46.4: who opted out of its channel is held back before the dispatcher can claim a
    // row (this transaction), at every start and resume, unless it is a real alert.
    const lista = canalDeBaja(e.protocolo);
    const dadosDeBaja =
      lista && !e.ignora_bajas
        ? await bajas.retenerBajas(trx, e.id_ejercicio, lista, msg('motivoDadoDeBaja'), momento)
        : 0;
    await auditar(trx, actor, 'iniciar', 'ejercicio', e.id_ejercicio, {
      canal,
      time: plan.time,
      time_cliente: b.time ?? null,
      reanudado: reanudar,
      ...(dadosDeBaja ? { dados_de_baja: dadosDeBaja } : {}),
      ...(e.ignora_bajas ? { ignora_bajas: e.ignora_bajas_motivo } : {}),
    });
    return { mensaje: msg(reanudar ? 'ejercicioReanudado' : 'ejercicioIniciado'), time: plan.time };
  });
  ctx.eventos.emit('ejercicio', b.id_ejercicio);
  return r;
}

/**
 * The checks Start makes, without starting (the pre-flight of a scheduled start, issue 24.3): the
 * Spanish reason it would be refused, or null when it is ready.
 */
export async function comprobarInicio(
  ctx: CtxEjercicios,
  id: number,
  comprobacion: ComprobacionInicio,
): Promise<string | null> {
  return (await comprobarInicioConAviso(ctx, id, comprobacion)).motivo;
}

/** comprobarInicio with what would not stop the start but the operator should know (issue
 * 45.5): a call's audio longer than its 'Tiempo' ('El audio dura 1 min 30 s y cada llamada se
 * corta a 1 min: nadie lo escuchará completo'), a questionnaire's questions' audios together
 * longer than its minutes ('Los audios de las preguntas suman …'). */
export async function comprobarInicioConAviso(
  ctx: CtxEjercicios,
  id: number,
  comprobacion: ComprobacionInicio,
): Promise<{ motivo: string | null; aviso: string | null }> {
  try {
    const e = await ejercicioOError(ctx.db.kysely, ctx, id);
    // Issue 47.2: a scheduled real alert needs its approval before its hour, and says so.
    const sinAprobar = avisoPrevioAprobacion(e);
    if (sinAprobar) return { motivo: sinAprobar, aviso: null };
    const canal = canalDeInicio(e);
    if (typeof canal !== 'string') return { motivo: canal.mensaje, aviso: null };
    const { e: listo } = await validarInicio(ctx.db.kysely, ctx, 'sistema', canal, id, false);
    const audios = await exigirListo(ctx, listo, comprobacion);
    const llamada =
      listo.id_tipo_ejercicio === TIPO_LLAMADA ? audios.find((a) => a.pregunta === 0) : undefined;
    // A questionnaire: its questions' audios together against its minutes (its accion).
    const preguntas = audios.filter((a) => a.pregunta > 0).map((a) => a.duracion_s);
    return {
      motivo: null,
      aviso: llamada
        ? avisoAudioLargo(llamada.duracion_s, listo.tiempo)
        : listo.id_tipo_ejercicio === TIPO_CUESTIONARIO
          ? avisoCuestionarioLargo(preguntas, listo.accion)
          : null,
    };
  } catch (err) {
    if (err instanceof HttpError) return { motivo: err.message, aviso: null };
    throw err;
  }
}

/** The channel an exercise starts through (its plan), or the plan's refusal. */
export function canalDeInicio(
  e: Pick<EjercicioCompleto, 'id_tipo_ejercicio' | 'accion' | 'tiempo' | 'protocolo'>,
) {
  const plan = planInicio(
    { id_tipo_ejercicio: e.id_tipo_ejercicio, accion: e.accion, tiempo: e.tiempo },
    { whatsappDisponible: e.protocolo === 'whatsapp' },
  );
  return plan.ok ? plan.canal : { mensaje: plan.mensaje };
}

/**
 * PUT /ejercicio/programar/: schedules an exercise that has not started (at the date and hour
 * given, or its own), reschedules it, or unschedules it; audited. 409 once it started.
 */
export async function programar(
  ctx: CtxEjercicios,
  actor: Actor,
  b: z.output<typeof ProgramarSchema>,
): Promise<string> {
  const r = await ctx.db.kysely.transaction().execute(async (trx) => {
    const e = await ejercicioOError(trx, ctx, b.id_ejercicio, true);
    exigirTransicion(e, 'programar', actor);
    if (!b.inicio_automatico) {
      await repo.actualizarEjercicio(trx, e.id_ejercicio, {
        inicio_automatico: 0,
        inicio_nota: null,
        comprobado_en: null,
      });
      await auditar(trx, actor, 'modificar', 'ejercicio', e.id_ejercicio, { programado: null });
      return msg('programacionQuitada');
    }
    const fecha = b.fecha_ini ?? e.fecha_ini;
    const hora = b.hora_ini ?? e.hora_ini;
    const programado = instanteProgramado(fecha, hora);
    await repo.actualizarEjercicio(trx, e.id_ejercicio, {
      fecha_ini: fecha,
      hora_ini: hora,
      inicio_automatico: 1,
      inicio_programado: programado,
      programado_por: actor.id_usuario > 0 ? actor.id_usuario : null,
      inicio_nota: null,
      comprobado_en: null,
    });
    await auditar(trx, actor, 'modificar', 'ejercicio', e.id_ejercicio, {
      programado: new Date(programado).toISOString(),
    });
    return msg('ejercicioProgramado', { fecha, hora });
  });
  ctx.eventos.emit('ejercicio', b.id_ejercicio);
  return r;
}

/**
 * POST /ejercicio/pausa/: proceso 0 + pausa 1 pauses a running exercise (en_pausa 1; it stays
 * en_proceso 1, the SPEC 4 'Paused' row, so Stop and resume remain offered); proceso 1 + pausa 0
 * is what the SPEC's client sends right after a start: it confirms a running exercise and resumes
 * a paused one. Any other pair is a 400.
 */
export async function pausa(
  ctx: CtxEjercicios,
  actor: Actor,
  b: z.output<typeof PausaSchema>,
): Promise<string> {
  const pausar = b.proceso === 0 && b.pausa === 1;
  const seguir = b.proceso === 1 && b.pausa === 0;
  if (!pausar && !seguir) throw error(400, 'pausaInvalida', undefined, 'pausa');
  const r = await ctx.db.kysely.transaction().execute(async (trx) => {
    const e = await ejercicioOError(trx, ctx, b.id_ejercicio, true);
    const paso = exigirTransicion(e, pausar ? 'pausar' : 'confirmar_inicio', actor);
    if (pausar) {
      await repo.actualizarEjercicio(trx, e.id_ejercicio, paso.cambios);
      await auditar(trx, actor, 'pausar', 'ejercicio', e.id_ejercicio);
      return { mensaje: msg('ejercicioPausado'), cambio: true };
    }
    // The SPEC client's confirmation of a running exercise changes nothing.
    if (Object.keys(paso.cambios).length === 0)
      return { mensaje: msg('ejercicioIniciado'), cambio: false };
    await repo.actualizarEjercicio(trx, e.id_ejercicio, paso.cambios);
    await auditar(trx, actor, 'iniciar', 'ejercicio', e.id_ejercicio, { reanudado: true });
    return { mensaje: msg('ejercicioReanudado'), cambio: true };
  });
  if (r.cambio) ctx.eventos.emit('ejercicio', b.id_ejercicio);
  return r.mensaje;
}

/** POST /quiz/stop/: stops any exercise; pending recipients become 'cancelado'. */
export async function detener(
  ctx: CtxEjercicios,
  actor: Actor,
  id: number,
  alFinal?: AlFinal,
): Promise<number> {
  const cancelados = await ctx.db.kysely.transaction().execute(async (trx) => {
    const e = await ejercicioOError(trx, ctx, id, true);
    const paso = exigirTransicion(e, 'detener', actor);
    const momento = ahora();
    // Flags first, then the pending rows: a dispatcher inserting fallback rows share-locks the
    // companion's row (issue 25.2), so it either sees the stop or its rows are cancelled here.
    await repo.actualizarEjercicio(trx, id, { ...paso.cambios, terminado: momento });
    const n = await repo.cancelarPendientes(trx, id, momento);
    await auditar(trx, actor, 'detener', 'ejercicio', id, { cancelados: n });
    if (alFinal) await alFinal(trx, id);
    return n;
  });
  ctx.eventos.emit('ejercicio', id);
  return cancelados;
}

/** GET /ejercicio/tiempo/{id}/: minutes or null. */
export async function leerTiempo(ctx: CtxEjercicios, id: number) {
  const e = await ejercicioOError(ctx.db.kysely, ctx, id);
  return e.tiempo;
}

/** PUT /ejercicio/tiempo/: stores the minutes. */
export async function guardarTiempo(ctx: CtxEjercicios, actor: Actor, id: number, tiempo: number) {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const e = await ejercicioOError(trx, ctx, id, true);
    if (e.completado) throw error(409, 'ejercicioCompletado');
    await repo.actualizarEjercicio(trx, id, { tiempo });
    await auditar(trx, actor, 'modificar', 'ejercicio', id, { tiempo });
  });
  ctx.eventos.emit('ejercicio', id);
}

/** GET /ejercicio/semaforo/{id}/ */
export async function semaforo(ctx: CtxEjercicios, id: number) {
  const e = await ejercicioOError(ctx.db.kysely, ctx, id);
  const conteo = await repo.conteoPorEstatus(ctx.db.kysely, id);
  return {
    status: 200 as const,
    id_ejercicio: id,
    semaforo: conteoSemaforo(conteo),
    completado: bandera(e.completado),
    en_proceso: bandera(e.en_proceso),
    en_pausa: bandera(e.en_pausa),
    detenido: bandera(e.detenido),
    motivo_pausa: e.motivo_pausa,
    en_espera: enEspera(e),
  };
}

/** GET /ejercicio/seguimiento/{id}/: the follow-up sets of its type, with their counts now. */
export async function gruposSeguimiento(ctx: CtxEjercicios, id: number) {
  const k = ctx.db.kysely;
  const e = await ejercicioOError(k, ctx, id);
  // With a fallback (issue 25.2) each recipient counts by its own outcome and its fallback's.
  const tipoRespaldo = (await repo.respaldoDe(k, id))?.id_tipo_ejercicio ?? null;
  // A poll (issue 46.2) adds the sets by answer: the rows counted by their current answer too.
  const opciones = (await encuestasDe(k, [id])).get(id)?.opciones ?? null;
  const conteo = opciones
    ? await conteoSeguimientoRespuestas(k, id)
    : await repo.conteoSeguimiento(k, id, tipoRespaldo !== null);
  return {
    status: 200 as const,
    id_ejercicio: id,
    ejercicio: e.titulo,
    id_tipo_ejercicio: e.id_tipo_ejercicio,
    grupos: conteoGrupos(e.id_tipo_ejercicio, conteo, tipoRespaldo, opciones).map((g) =>
      esGrupoRespuesta(g.grupo) ? { ...g, etiqueta: etiquetaGrupo(g.grupo, opciones ?? []) } : g,
    ),
    celdas: celdasSeguimiento(e.id_tipo_ejercicio, conteo, tipoRespaldo, opciones),
  };
}

/** The dispatcher's waiting note, shown only while the exercise runs (phase 'en_curso'). */
export function enEspera(e: {
  en_espera: string | null;
  completado: number;
  en_proceso: number;
  en_pausa: number;
}): string | null {
  return faseDe(e) === 'en_curso' ? e.en_espera : null;
}

/** The exercise header of the reports. */
export function encabezadoReporte(e: EjercicioCompleto) {
  return {
    id_ejercicio: e.id_ejercicio,
    ejercicio: e.titulo,
    tipo_ejercicio: tipoPorId(e.id_tipo_ejercicio)?.etiqueta ?? e.etiqueta_tipo,
    id_tipo_ejercicio: e.id_tipo_ejercicio,
    alias: e.alias,
    fecha_ini: e.fecha_ini,
    hora_ini: e.hora_ini,
    completado: bandera(e.completado),
    en_proceso: bandera(e.en_proceso),
    en_pausa: bandera(e.en_pausa),
    detenido: bandera(e.detenido),
    estatus: estatusEjercicio({ completado: e.completado, detenido: e.detenido }),
    modo: modoDe(e.modo),
  };
}
