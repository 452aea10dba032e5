import { crearAppPbx, clavesPbx } from './app.ts';
import { cargarConfigPbx } from './config.ts';
import { promptsEnIdioma } from './prompts.ts';

// `npm run pbx`: the telephony agent alone, as a real Asterisk host runs it.
const config = cargarConfigPbx();
const app = await crearAppPbx(config, await clavesPbx(config, 120_000));
await app.listen({ port: config.puerto, host: config.host });
app.log.info(
  `Agente de telefonía en ${config.host}:${config.puerto} (sonidos ${config.sonidosDir}, plan de marcado ${config.dialplanDir}, AMI ${config.amiUrl || 'sin configurar'})`,
);
// The prompts the dialplan plays in PBX_IDIOMA: a missing one would leave callers in silence
// (Start refuses a quiz then; this says so at once).
const prompts = promptsEnIdioma(config.sonidosSistemaDir, config.idioma);
if (prompts.faltan.length)
  app.log.warn(
    `Faltan audios del sistema en ${prompts.carpeta} (idioma ${config.idioma}): ${prompts.faltan.map((f) => f.prompt).join(', ')}; instale asterisk-core-sounds-es-gsm y enlace /usr/share/asterisk/sounds/es_MX_f_Allison como ${prompts.carpeta}`,
  );
for (const s of ['SIGINT', 'SIGTERM'] as const)
  process.on(s, () => void app.close().then(() => process.exit(0)));
