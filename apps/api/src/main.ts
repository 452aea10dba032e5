import { buildApp, crearContexto } from './server.ts';
import { sembrarEquiposDemo } from './services/equipos-demo.ts';
import { sembrarTelefonosDemo } from './services/telefonos-demo.ts';
import { tokenDeServicio } from './auth/token-servicio.ts';
import { arrancarWebhooks } from './services/webhooks-salida.ts';
import { arrancarFuentesCap } from './services/fuentes-cap.ts';
import { alCerrar, arrancarTrabajos, configuracion } from './arranque.ts';

// Entry point of the api process: configuration from the environment, then listen. Its parts and
// their order are the standalone dispatcher's (arranque.ts), plus the HTTP server (which holds
// the PostgreSQL bridge: server.ts), the demo's data and the integrations.
const config = configuracion();
const { ctx, semilla } = await crearContexto(config);
await sembrarEquiposDemo(ctx.db);
await sembrarTelefonosDemo(ctx.db);
const app = await buildApp(ctx);
if (semilla.passwordGenerada) {
  // Printed once, on the first start only; it is not stored anywhere in clear.
  console.log(
    `\n  Administrador creado: usuario '${config.adminUser}', contraseña '${semilla.passwordGenerada}'\n  (guárdela: no se volverá a mostrar)\n`,
  );
}
await app.listen({ port: config.port, host: config.host });
// The embedded default runs the dispatcher in this process; DESPACHO_EN_API=0 leaves the work to
// standalone `npm run dispatcher` processes. Every api process runs the scheduler.
const { despachador, programador } = await arrancarTrabajos(ctx, {
  despachador: process.env.DESPACHO_EN_API !== '0',
  comprobacion: async (id_usuario) => ({
    equipoMs: config.comprobacionEquipoMs,
    pbxBase: config.pbxBase,
    token: await tokenDeServicio(ctx, id_usuario),
  }),
});
ctx.despachador = despachador;
// Outgoing webhooks (issue 47.4): every api process sends the due deliveries (a lease each).
const webhooks = arrancarWebhooks(ctx.db.kysely, ctx.webhooks, (m) => app.log.warn(m));
// CAP feeds (issue 47.4): every api process reads the due feeds (a lease each).
const fuentesCap = arrancarFuentesCap(ctx, ctx.fuentesCap, (m) => app.log.warn(m));
alCerrar([
  () => programador.detener(),
  () => webhooks.detener(),
  () => fuentesCap.detener(),
  () => app.close(),
  despachador && (() => despachador.detener()),
  () => ctx.db.close(),
]);
