import { EventEmitter } from 'node:events';
import path from 'node:path';
import { loadConfig } from './config.ts';
import type { Eventos } from './contexto.ts';
import { openDb } from '@pregon/db/database';
import { migrate } from '@pregon/db/migrate';
import { usarClaveCredenciales } from '@pregon/db/credenciales';
import { cargarClaveCredenciales } from '@pregon/servidor/auth/keys';
import { puentePostgres } from './vivo/puente-pg.ts';
import {
  arrancarDespachador,
  bitacoraConsola,
  configDespachoDeEntorno,
} from './dispatcher/index.ts';
import { arrancarProgramador, configProgramadorDeEntorno } from './programador.ts';
import { sondasRed } from './services/sondas-inicio.ts';

// `npm run dispatcher`: a standalone dispatcher process. Against PostgreSQL (DATABASE_URL) any
// number of them may run on any number of machines; against SQLite run only one, and not beside
// an api that runs its own (DESPACHO_EN_API=0 turns that one off).

const config = loadConfig();
process.env.TZ = config.tz;
const db = openDb({
  databaseUrl: config.databaseUrl,
  sqliteFile: path.join(config.dataDir, 'pregon.db'),
});
await migrate(db);
// The api's key for device credentials (the same DATA_DIR, or a copy of its credenciales.key).
usarClaveCredenciales(cargarClaveCredenciales(config.dataDir));
// A dropped idle connection (database restart) is logged; the pool reconnects on the next query.
const eventos: Eventos = new EventEmitter();
const bitacora = bitacoraConsola(config.logLevel);
// On PostgreSQL the dispatcher's events (progress, completion, automatic pause) reach the api's
// live dashboards through NOTIFY, and an api's start or pause wakes this dispatcher at once.
const puente =
  db.engine === 'postgres'
    ? await puentePostgres(db, eventos, (err) => bitacora?.error(`LISTEN/NOTIFY: ${String(err)}`))
    : undefined;
const d = await arrancarDespachador(db, configDespachoDeEntorno(process.env, { tz: config.tz }), {
  eventos,
  bitacora,
});
// Scheduled starts (issue 24.3): this process looks too, so an exercise starts on time while any
// api or dispatcher is alive. Without the api's key it cannot ask the telephony agent for the
// audio (the api's own scheduler and the Start button do); the other checks run.
const programador = arrancarProgramador(
  { db, eventos, sondas: sondasRed },
  {
    config: configProgramadorDeEntorno(process.env),
    comprobacion: async () => ({ equipoMs: config.comprobacionEquipoMs }),
    bitacora,
  },
);
bitacora?.info(
  `en marcha sobre ${db.engine === 'postgres' ? 'PostgreSQL' : 'SQLite'} (pid ${process.pid})`,
);
let cerrando = false;
const cerrar = async () => {
  if (cerrando) return;
  cerrando = true;
  await programador.detener();
  await d.detener();
  await puente?.cerrar();
  await db.close();
  process.exit(0);
};
process.once('SIGINT', cerrar);
process.once('SIGTERM', cerrar);
