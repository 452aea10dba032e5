import { Migrator, type Migration } from 'kysely';
import type { Db } from './database.ts';
import * as inicial from './migrations/0001-inicial.ts';
import * as leido from './migrations/0029-leido.ts';
import * as despacho from './migrations/0003-despacho.ts';
import * as detallePorEjercicio from './migrations/0002-detalle-por-ejercicio.ts';
import * as enlacesSinRowid from './migrations/0004-enlaces-sin-rowid.ts';
import * as importacionAvance from './migrations/0005-importacion-avance.ts';
import * as llamadas from './migrations/0006-llamadas.ts';
import * as ingresoFallos from './migrations/0007-ingreso-fallos.ts';
import * as reintentosLlamada from './migrations/0008-reintentos-llamada.ts';
import * as destinatarios from './migrations/0009-destinatarios.ts';
import * as partesSms from './migrations/0010-partes-sms.ts';
import * as ajustes from './migrations/0011-ajustes.ts';
import * as vigencia from './migrations/0012-vigencia.ts';
import * as sesiones from './migrations/0013-sesiones.ts';
import * as intentosAlSalir from './migrations/0014-intentos-al-salir.ts';
import * as alcance from './migrations/0015-alcance.ts';
import * as audiosEjercicio from './migrations/0016-audios-ejercicio.ts';
import * as programacion from './migrations/0017-programacion.ts';
import * as busqueda from './migrations/0018-busqueda.ts';
import * as ventanas from './migrations/0019-ventanas.ts';
import * as estados from './migrations/0020-estados.ts';
import * as indicesDespacho from './migrations/0021-indices-despacho.ts';
import * as archivado from './migrations/0022-archivado.ts';
import * as seguimiento from './migrations/0024-seguimiento.ts';
import * as respaldo from './migrations/0026-respaldo.ts';
import * as cola from './migrations/0030-cola.ts';
import * as colaUnica from './migrations/0031-cola-unica.ts';
import * as piso from './migrations/0032-piso.ts';
import * as holguraIndices from './migrations/0033-holgura-indices.ts';
import * as respuestasRecibidas from './migrations/0034-respuestas-recibidas.ts';
import * as ticketsVivo from './migrations/0035-tickets-vivo.ts';
import * as encuestasCasos from './migrations/0037-encuestas-casos.ts';
import * as bajas from './migrations/0038-bajas.ts';
import * as entradaAndroidWhatsapp from './migrations/0039-entrada-android-whatsapp.ts';
import * as mensajesSueltos from './migrations/0040-mensajes-sueltos.ts';
import * as recordatorios from './migrations/0041-recordatorios.ts';
import * as puertosEquipo from './migrations/0042-puertos-equipo.ts';
import * as modoEjercicio from './migrations/0044-modo-ejercicio.ts';
import * as integraciones from './migrations/0047-integraciones.ts';
import * as versiones from './migrations/0054-versiones.ts';
import * as aprobaciones from './migrations/0063-aprobaciones.ts';
import * as secretoWebhookCifrado from './migrations/0061-secreto-webhook-cifrado.ts';
import * as alertasCap from './migrations/0062-alertas-cap.ts';
import * as webhookAndroidId from './migrations/0050-webhook-android-id.ts';
import * as sinFkRespuestas from './migrations/0053-sin-fk-respuestas.ts';
import * as plantillasMensaje from './migrations/0064-plantillas-mensaje.ts';
import * as usosPlantilla from './migrations/0066-usos-plantilla.ts';
import * as esperaEquipo from './migrations/0067-espera-equipo.ts';
import * as versionCuestionarios from './migrations/0068-version-cuestionarios.ts';
import * as fuentesCap from './migrations/0069-fuentes-cap.ts';
import * as recibosEnEspera from './migrations/0070-recibos-en-espera.ts';
import * as procedenciaEjercicio from './migrations/0072-procedencia-ejercicio.ts';

// One migration history for both engines; each step receives the engine for the few
// places where the SQL differs (identity columns).
const pasos: Record<string, { up: typeof inicial.up }> = {
  '0001-inicial': inicial,
  '0002-detalle-por-ejercicio': detallePorEjercicio,
  '0003-despacho': despacho,
  '0004-enlaces-sin-rowid': enlacesSinRowid,
  '0005-importacion-avance': importacionAvance,
  '0006-llamadas': llamadas,
  '0007-ingreso-fallos': ingresoFallos,
  '0008-reintentos-llamada': reintentosLlamada,
  '0009-destinatarios': destinatarios,
  '0010-partes-sms': partesSms,
  '0011-ajustes': ajustes,
  '0012-vigencia': vigencia,
  '0013-sesiones': sesiones,
  '0014-intentos-al-salir': intentosAlSalir,
  '0015-alcance': alcance,
  '0016-audios-ejercicio': audiosEjercicio,
  '0017-programacion': programacion,
  '0018-busqueda': busqueda,
  '0019-ventanas': ventanas,
  '0020-estados': estados,
  '0021-indices-despacho': indicesDespacho,
  '0022-archivado': archivado,
  '0024-seguimiento': seguimiento,
  '0026-respaldo': respaldo,
  '0029-leido': leido,
  '0030-cola': cola,
  '0031-cola-unica': colaUnica,
  '0032-piso': piso,
  '0033-holgura-indices': holguraIndices,
  '0034-respuestas-recibidas': respuestasRecibidas,
  '0035-tickets-vivo': ticketsVivo,
  '0037-encuestas-casos': encuestasCasos,
  '0038-bajas': bajas,
  '0039-entrada-android-whatsapp': entradaAndroidWhatsapp,
  '0040-mensajes-sueltos': mensajesSueltos,
  '0041-recordatorios': recordatorios,
  '0042-puertos-equipo': puertosEquipo,
  '0044-modo-ejercicio': modoEjercicio,
  '0047-integraciones': integraciones,
  '0050-webhook-android-id': webhookAndroidId,
  '0053-sin-fk-respuestas': sinFkRespuestas,
  '0054-versiones': versiones,
  '0061-secreto-webhook-cifrado': secretoWebhookCifrado,
  '0062-alertas-cap': alertasCap,
  '0063-aprobaciones': aprobaciones,
  '0064-plantillas-mensaje': plantillasMensaje,
  '0066-usos-plantilla': usosPlantilla,
  '0067-espera-equipo': esperaEquipo,
  '0068-version-cuestionarios': versionCuestionarios,
  '0069-fuentes-cap': fuentesCap,
  '0070-recibos-en-espera': recibosEnEspera,
  '0072-procedencia-ejercicio': procedenciaEjercicio,
};

/** Brings the database to the latest schema (or up to the step `hasta`, for tests of a
 * migration's backfill); throws with the failing step's error. */
export async function migrate(db: Db, hasta?: string): Promise<void> {
  const migrations: Record<string, Migration> = {};
  for (const [nombre, paso] of Object.entries(pasos)) {
    migrations[nombre] = { up: (k) => paso.up(k, db.engine) };
  }
  const migrator = new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = hasta
    ? await migrator.migrateTo(hasta)
    : await migrator.migrateToLatest();
  const fallo = results?.find((r) => r.status === 'Error');
  if (error || fallo) {
    throw new Error(`La migración ${fallo?.migrationName ?? ''} falló: ${String(error)}`);
  }
}
