import { loadConfig } from './config.ts';
import { buildApp, crearContexto } from './server.ts';
import { bitacoraConsola, iniciarDespachador } from './dispatcher/index.ts';
import { sembrarEquiposDemo } from './services/equipos-demo.ts';
import { sembrarTelefonosDemo } from './services/telefonos-demo.ts';
import { arrancarProgramador, configProgramadorDeEntorno } from './programador.ts';
import { tokenDeServicio } from './auth/token-servicio.ts';
import { arrancarWebhooks } from './services/webhooks-salida.ts';
import { arrancarFuentesCap } from './services/fuentes-cap.ts';

// Entry point of the api process: configuration from the environment, then listen.
const config = loadConfig();
process.env.TZ = config.tz;
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
// standalone `npm run dispatcher` processes.
const despachador = process.env.DESPACHO_EN_API === '0' ? undefined : await iniciarDespachador(ctx);
// Scheduled starts (issue 24.3): every api and dispatcher process looks; one starts each.
const programador = arrancarProgramador(ctx, {
  config: configProgramadorDeEntorno(process.env),
  comprobacion: async (id_usuario) => ({
    equipoMs: config.comprobacionEquipoMs,
    pbxBase: config.pbxBase,
    token: await tokenDeServicio(ctx, id_usuario),
  }),
  bitacora: bitacoraConsola(config.logLevel),
});
ctx.despachador = despachador;
// Outgoing webhooks (issue 47.4): every api process sends the due deliveries (a lease each).
const webhooks = arrancarWebhooks(ctx.db.kysely, ctx.webhooks, (m) => app.log.warn(m));
// CAP feeds (issue 47.4): every api process reads the due feeds (a lease each).
const fuentesCap = arrancarFuentesCap(ctx, ctx.fuentesCap, (m) => app.log.warn(m));
let cerrando = false;
const cerrar = async () => {
  if (cerrando) return;
  cerrando = true;
  await programador.detener();
  await webhooks.detener();
  await fuentesCap.detener();
  await app.close();
  await despachador?.detener();
  await ctx.db.close();
  process.exit(0);
};
process.once('SIGINT', cerrar);
process.once('SIGTERM', cerrar);
