import { MARCADO_DEFECTO, PROTOCOLOS, type Protocolo } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import type { Db } from '@pregon/db/database';
import { cifrarCredenciales } from '@pregon/db/credenciales';

// Demo devices of `npm start`: one per simulated gateway (simulators/src/main.ts on loopback), so
// a newcomer can run an SMS or a WhatsApp drill without configuring anything. The credentials are
// the random ones start.mjs generated for this run (SIM_* variables), written again each start.
// Aliases carry the SPEC's keywords (SMS, WHATSAPP) so the create dialog offers them for their type.

/** One demo device of a protocol (ports, rate and dial template default to a message gateway's). */
interface DemoEquipo {
  alias: string;
  serial: string;
  url: string;
  credenciales: Record<string, string>;
  puertos?: number;
  tasa?: number;
  marcado?: string;
}

/** Creates or updates the five demo devices from the SIM_* environment; no-op without SIM_DEMO=1. */
export async function sembrarEquiposDemo(
  db: Db,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  if (env.SIM_DEMO !== '1') return;
  const host = env.SIM_HOST ?? '127.0.0.1';
  // One entry per protocol (issue 44.3): a protocol without its demo device does not compile.
  const porProtocolo: Record<Protocolo, DemoEquipo[]> = {
    smpp: [
      {
        alias: 'SMS (simulador SMPP)',
        serial: 'SIM-SMPP',
        url: `smpp://${host}:${env.SIM_SMPP_PORT ?? 2775}`,
        credenciales: {
          system_id: env.SIM_SMPP_USUARIO ?? 'pregon',
          password: env.SIM_SMPP_PASSWORD ?? '',
        },
      },
    ],
    android: [
      {
        alias: 'SMS (simulador Android)',
        serial: 'SIM-ANDROID',
        url: `http://${host}:${env.SIM_ANDROID_PORT ?? 8081}`,
        credenciales: {
          usuario: env.SIM_ANDROID_USUARIO ?? 'pregon',
          password: env.SIM_ANDROID_PASSWORD ?? '',
        },
      },
    ],
    whatsapp: [
      {
        alias: 'WhatsApp (simulador)',
        serial: 'SIM-WHATSAPP',
        url: `http://${host}:${env.SIM_WHATSAPP_PORT ?? 8082}`,
        credenciales: {
          token: env.SIM_WA_TOKEN ?? '',
          phone_number_id: env.SIM_WA_PHONE_ID ?? '100000000000001',
          waba_id: env.SIM_WA_WABA_ID ?? '100000000000002',
          app_secret: env.SIM_WA_APP_SECRET ?? '',
          verify_token: env.SIM_WA_VERIFY_TOKEN ?? '',
        },
      },
    ],
    // Calls and quizzes: the AMI simulator runs the dialplan the PBX agent wrote. A call holds
    // a port for its whole length, so these have more ports than the message gateways.
    asterisk: (['LLAMADAS', 'CUESTIONARIO'] as const).map((tipo) => ({
      alias: `${tipo} (simulador Asterisk)`,
      serial: `SIM-AMI-${tipo}`,
      url: `ami://${host}:${env.SIM_AMI_PORT ?? 5038}`,
      credenciales: {
        usuario: env.SIM_AMI_USUARIO ?? 'pregon',
        secreto: env.SIM_AMI_SECRETO ?? '',
        troncal: 'demo',
      },
      puertos: 10,
      tasa: 2,
      marcado: MARCADO_DEFECTO,
    })),
  };
  const equipos = PROTOCOLOS.flatMap((protocolo) =>
    porProtocolo[protocolo].map((e) => ({ ...e, protocolo })),
  );
  for (const e of equipos) {
    const fila = {
      alias: e.alias,
      url: e.url,
      protocolo: e.protocolo,
      puertos: e.puertos ?? 4,
      tasa: e.tasa ?? 5,
      marcado: e.marcado ?? null,
      credenciales: cifrarCredenciales(e.credenciales),
      descripcion: msg('equipoSimulador', { protocolo: e.protocolo.toUpperCase() }),
    };
    const r = await db.kysely
      .updateTable('equipos')
      .set(fila)
      .where('serial', '=', e.serial)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0)
      await db.kysely
        .insertInto('equipos')
        .values({ ...fila, serial: e.serial })
        .execute();
  }
}
