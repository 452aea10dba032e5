import { crearAppPbx, clavesPbx } from './app.ts';
import { cargarConfigPbx } from './config.ts';

// `npm run pbx`: the telephony agent alone, as a real Asterisk host runs it.
const config = cargarConfigPbx();
const app = await crearAppPbx(config, await clavesPbx(config, 120_000));
await app.listen({ port: config.puerto, host: config.host });
app.log.info(
  `Agente de telefonía en ${config.host}:${config.puerto} (sonidos ${config.sonidosDir}, plan de marcado ${config.dialplanDir}, AMI ${config.amiUrl || 'sin configurar'})`,
);
for (const s of ['SIGINT', 'SIGTERM'] as const)
  process.on(s, () => void app.close().then(() => process.exit(0)));
