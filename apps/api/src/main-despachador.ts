import { EventEmitter } from 'node:events';
import type { Eventos } from './contexto.ts';
import { bitacoraConsola } from './dispatcher/index.ts';
import { abrirBase, alCerrar, arrancarTrabajos, configuracion, puenteEventos } from './arranque.ts';
import { sondasRed } from './services/sondas-inicio.ts';

// `npm run dispatcher`: a standalone dispatcher process. Against PostgreSQL (DATABASE_URL) any
// number of them may run on any number of machines; against SQLite run only one, and not beside
// an api that runs its own (DESPACHO_EN_API=0 turns that one off). Its parts and their order are
// the api's (arranque.ts), without the HTTP server, the api's keys and its integrations.

const config = configuracion();
// The api's key for device credentials (the same DATA_DIR, or a copy of its credenciales.key).
const db = await abrirBase(config);
// A dropped idle connection (database restart) is logged; the pool reconnects on the next query.
const eventos: Eventos = new EventEmitter();
const bitacora = bitacoraConsola(config.logLevel);
// On PostgreSQL the dispatcher's events (progress, completion, automatic pause) reach the api's
// live dashboards through NOTIFY, and an api's start or pause wakes this dispatcher at once.
const puente = await puenteEventos(db, eventos, (err) =>
  bitacora?.error(`LISTEN/NOTIFY: ${String(err)}`),
);
// Scheduled starts (issue 24.3): this process looks too, so an exercise starts on time while any
// api or dispatcher is alive. Without the api's key it cannot ask the telephony agent for the
// audio (the api's own scheduler and the Start button do); the other checks run.
const { despachador, programador } = await arrancarTrabajos(
  { db, eventos, config, sondas: sondasRed },
  { despachador: true, comprobacion: async () => ({ equipoMs: config.comprobacionEquipoMs }) },
);
bitacora?.info(
  `en marcha sobre ${db.engine === 'postgres' ? 'PostgreSQL' : 'SQLite'} (pid ${process.pid})`,
);
alCerrar([
  () => programador.detener(),
  despachador && (() => despachador.detener()),
  puente && (() => puente.cerrar()),
  () => db.close(),
]);
