import { rellenarRuta } from '@pregon/contract/api/endpoint';
import { subidasAudio } from '@pregon/contract/api/pbx';
import { nombreVisibleAudio } from '@pregon/contract/rules/audio';
import type { Db } from '@pregon/db/database';
import { auditar } from '../repositories/auditoria.ts';
import * as repo from '../repositories/quiz.ts';

// Issue 45.2: the SPEC's own client saves a questionnaire in its own order (section 4: POST /quiz/
// with file_NN = the chosen audio names, then each upload, answers, fill-digits, GET
// /quiz/file/{id}/, write). Uploads are stored as `{name}-{hash}` (issue 23.1), so such a
// questionnaire named files that do not exist and Start refused it. Now a question whose audio is
// a chosen name (no hash suffix) is bound, when the quiz file is generated and again at Start, to
// the stored file of that name uploaded for it: the newest upload of that name by the user who
// saved the questionnaire (POST /quiz/, audited) since that save, as the telephony agent records
// its uploads (GET /{software}/audio/subidas/{base}/). The binding replaces the name in the
// question once (only while it still holds the chosen name), so no later upload changes it; with
// no such upload nothing changes and Start refuses as before ('El audio … no está en el servidor
// de telefonía'). Two operators uploading the same name for two questionnaires at once each get
// their own (the agent records who uploaded). The agent's and the api's clocks are compared
// (uploads from the save's millisecond on): both run beside each other, or under NTP.

/** How the api asks the telephony agent. */
export interface AgenteAudios {
  base?: string;
  software: string;
  token?: string;
  timeoutMs: number;
}

/** The agent's uploads of `nombre`, newest first; undefined when it could not be asked. */
async function subidas(agente: AgenteAudios & { base: string }, nombre: string) {
  const url =
    agente.base.replace(/\/+$/, '') +
    rellenarRuta(subidasAudio.path, { software: agente.software, base: nombre });
  try {
    const r = await fetch(url, {
      headers: agente.token ? { authorization: agente.token } : {},
      signal: AbortSignal.timeout(agente.timeoutMs),
    });
    if (!r.ok) return undefined;
    const cuerpo = subidasAudio.respuesta.safeParse(await r.json());
    return cuerpo.success ? cuerpo.data.subidas : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Binds the questions of exercise `id_ejercicio`'s questionnaire that name an audio by its chosen
 * name to the file uploaded for it (see above); returns how many questions were bound. Never
 * throws for the agent: what stays unbound is refused by Start with its own message.
 */
export async function vincularAudiosCuestionario(
  ctx: { db: Db },
  id_ejercicio: number,
  agente: AgenteAudios,
): Promise<number> {
  if (!agente.base) return 0;
  const base = agente.base;
  const k = ctx.db.kysely;
  const c = await repo.cuestionarioDeEjercicio(k, id_ejercicio);
  if (!c) return 0;
  const nombres = new Set(
    (await repo.preguntasDe(k, c.id_cuestionario))
      .map((p) => p.archivo.trim())
      .filter((a) => a !== '' && nombreVisibleAudio(a) === a),
  );
  if (nombres.size === 0) return 0;
  // Who saved the questions last through POST /quiz/ (or the whole save), and when.
  const guardado = await k
    .selectFrom('auditoria')
    .select(['id_usuario', 'usuario', 'fecha'])
    .where('entidad', '=', 'cuestionario')
    .where('id_entidad', '=', String(c.id_cuestionario))
    .where('accion', 'in', ['crear', 'modificar'])
    .orderBy('fecha', 'desc')
    .orderBy('id_auditoria', 'desc')
    .limit(1)
    .executeTakeFirst();
  const desde = Number(guardado?.fecha ?? c.creado ?? 0);
  const quien = guardado?.id_usuario ?? null;
  let vinculadas = 0;
  for (const nombre of nombres) {
    const lista = await subidas({ ...agente, base }, nombre);
    const elegida = lista?.find((s) => s.en >= desde && (quien === null || s.id_usuario === quien));
    if (!elegida) continue;
    const n = await k.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('preguntas')
        .set({ archivo: elegida.filename })
        .where('id_cuestionario', '=', c.id_cuestionario)
        .where('archivo', '=', nombre)
        .executeTakeFirst();
      const cambiadas = Number(r.numUpdatedRows);
      if (cambiadas > 0)
        await auditar(
          trx,
          guardado?.id_usuario
            ? { id_usuario: guardado.id_usuario, usuario: guardado.usuario ?? '' }
            : null,
          'modificar',
          'cuestionario_audio',
          c.id_cuestionario,
          {
            id_ejercicio,
            nombre,
            archivo: elegida.filename,
            subido: elegida.en,
            preguntas: cambiadas,
          },
        );
      return cambiadas;
    });
    vinculadas += n;
  }
  return vinculadas;
}
