import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { CAP_NS } from '@pregon/contract/rules/cap';
import { openDb, type Db } from '@pregon/db/database';
import {
  MOTORES,
  crearBasePostgresMigrada,
  pedir,
  type ApiDePrueba,
} from '../../testing/entorno.ts';
import { ESTADO_JALISCO, insertarTelefono } from '../../testing/ejercicios.ts';
import { crearEquipo } from '../../testing/fabrica.ts';
import { esperarQue } from '@pregon/despacho/testing/comun';

// Issue 47.4: a CAP alert's exercise is created in one transaction. The api (a real process) is
// SIGKILLed in the middle of acting on an alert: after its identity was claimed and before the
// request ended (the 'recibir_cap' audit row, the last step, is held by a trigger this test adds
// to its own database: no hook in the product). On the code before, the claim had committed on
// its own and the exercise in other transactions: the alert sent again was refused as a
// duplicate ('ya se recibió') with an exercise nobody linked. Now nothing of it survives the
// kill, and the same alert sent again creates exactly one exercise, pending approval.

const RAIZ = path.resolve(import.meta.dirname, '../../../..');
const PASSWORD = 'Admin-prueba-1';
const REMITENTE = 'sistema-estatal@jalisco.gob.mx';
const IDENTIFICADOR = 'JAL-CAIDA-1';

const ALERTA = `<?xml version="1.0" encoding="UTF-8"?>
<alert xmlns="${CAP_NS}">
  <identifier>${IDENTIFICADOR}</identifier><sender>${REMITENTE}</sender>
  <sent>2026-11-28T18:00:00-06:00</sent><status>Exercise</status>
  <msgType>Alert</msgType><scope>Public</scope>
  <info><language>es-MX</language><category>Geo</category><event>Sismo</event>
    <urgency>Immediate</urgency><severity>Severe</severity><certainty>Observed</certainty>
    <headline>Sismo fuerte en Jalisco</headline>
    <instruction>Aléjese de ventanas</instruction>
    <area><areaDesc>Jalisco</areaDesc><geocode><valueName>INEGI</valueName><value>14</value></geocode></area>
  </info>
</alert>`;

function puertoLibre(): Promise<number> {
  return new Promise((r, f) => {
    const s = net.createServer();
    s.once('error', f);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address() as net.AddressInfo;
      s.close(() => r(a.port));
    });
  });
}

describe.each(MOTORES)('una alerta CAP con la api muerta a mitad (%s)', (motor) => {
  const limpiar: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const f of limpiar.splice(0).reverse()) await f();
  });

  it(
    'SIGKILL tras reclamar la identidad: no queda nada, y la misma alerta reenviada crea exactamente un ejercicio',
    { timeout: 120_000 },
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-caida-cap-'));
      limpiar.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
      const pg = motor === 'postgres' ? await crearBasePostgresMigrada() : undefined;
      if (pg) limpiar.push(() => pg.borrar());
      const port = await puertoLibre();
      const url = `http://127.0.0.1:${port}`;
      const vivos = new Set<ChildProcess>();
      limpiar.push(() => {
        for (const h of vivos) h.kill('SIGKILL');
      });
      const levantar = async () => {
        // node with tsx's loader, not the tsx CLI (whose wrapper would take the SIGKILL).
        const h = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
          cwd: RAIZ,
          stdio: ['ignore', 'ignore', 'inherit'],
          env: {
            ...process.env,
            PORT: String(port),
            HOST: '127.0.0.1',
            DATA_DIR: dataDir,
            ADMIN_PASSWORD: PASSWORD,
            LOG_LEVEL: 'silent',
            COMPROBACION_EQUIPO_MS: '0',
            DESPACHO_EN_API: '0',
            ...(pg ? { DATABASE_URL: pg.url } : {}),
          },
        });
        vivos.add(h);
        h.on('exit', () => vivos.delete(h));
        await esperarQue(
          async () =>
            (
              await pedir(url, 'POST', '/auth/signin/', {
                body: { usuario: 'admin', password: PASSWORD },
              }).catch(() => ({ status: 0 }))
            ).status === 200,
          'la api responde',
          60_000,
        );
        const r = await pedir(url, 'POST', '/auth/signin/', {
          body: { usuario: 'admin', password: PASSWORD },
        });
        return { h, token: r.body.token as string };
      };
      const matar = (h: ChildProcess) =>
        new Promise<void>((r) => {
          if (h.exitCode !== null || h.signalCode !== null) return r();
          h.once('exit', () => r());
          h.kill('SIGKILL');
        });

      const primera = await levantar();
      const db: Db = pg
        ? openDb({ databaseUrl: pg.url })
        : openDb({ sqliteFile: path.join(dataDir, 'pregon.db') });
      limpiar.push(() => db.close());
      const k = db.kysely;
      await crearEquipo(db, { protocolo: 'smpp', alias: 'SMS estatal' });
      const api = { ctx: { db } } as unknown as ApiDePrueba;
      await insertarTelefono(api, '3310000001', ESTADO_JALISCO, [1]);
      await insertarTelefono(api, '3310000002', ESTADO_JALISCO, [2]);

      // The hold: once the alert's identity is claimed, the 'recibir_cap' audit row waits.
      // PostgreSQL sleeps in the inserting transaction (pg_stat_activity shows its wait 'PgSleep'); SQLite, which
      // has no sleep, counts a 900-million-row cross join (many seconds of CPU in the api's process).
      if (pg) {
        await sql`create function pausa_cap() returns trigger language plpgsql as $$
          begin perform pg_sleep(60); return new; end $$`.execute(k);
        await sql`create trigger pausa_cap after insert on auditoria for each row
          when (new.accion = 'recibir_cap') execute function pausa_cap()`.execute(k);
      } else {
        await sql`create table lastre (x integer)`.execute(k);
        await sql`insert into lastre with recursive c(x) as (select 1 union all select x + 1
          from c where x < 30000) select x from c`.execute(k);
        await sql`create trigger pausa_cap after insert on auditoria
          when new.accion = 'recibir_cap'
          begin select count(*) from lastre a, lastre b where a.x + b.x > 0; end`.execute(k);
      }
      const envio = pedir(url, 'POST', '/cap/', {
        token: primera.token,
        rawBody: ALERTA,
        headers: { 'content-type': 'application/xml' },
      }).then(
        (r) => ({ status: r.status, body: r.body as unknown }),
        (e: Error) => ({ status: 0, body: e.message }),
      );
      let terminada = false;
      void envio.then(() => (terminada = true));
      if (pg) {
        // The request's transaction is in the trigger: the claim is inserted, not committed.
        await esperarQue(async () => {
          const r = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event = 'PgSleep'
            and state = 'active' and pid <> pg_backend_pid()`.execute(k);
          return r.rows[0]!.n === 1;
        }, 'la transacción de la alerta en la pausa');
      } else {
        // The request's transaction holds SQLite's write lock while it runs: seen from this
        // connection as a refused BEGIN IMMEDIATE, for a whole second (the api's background
        // writers hold it for milliseconds), while the cross join runs for many seconds.
        const sqlite = db.sqlite!;
        sqlite.pragma('busy_timeout = 0');
        const ocupada = () => {
          try {
            sqlite.exec('begin immediate');
            sqlite.exec('rollback');
            return false;
          } catch {
            return true;
          }
        };
        let desde = 0;
        await esperarQue(async () => {
          if (!ocupada()) desde = 0;
          else desde ||= Date.now();
          return desde > 0 && Date.now() - desde >= 1_000;
        }, 'la transacción de la alerta en la pausa');
      }
      expect(terminada, 'la petición aún no termina al matar la api').toBe(false);
      await matar(primera.h);
      expect(await envio).toMatchObject({ status: 0 });
      if (pg) {
        // A dead client's backend notices only when it next talks to it; a crashed host's
        // connection ends by TCP keepalive. Here it is ended now (pg_terminate_backend), which
        // rolls its transaction back as the crash would.
        await sql`select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and wait_event = 'PgSleep'
          and pid <> pg_backend_pid()`.execute(k);
        await esperarQue(async () => {
          const r = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event = 'PgSleep'
            and pid <> pg_backend_pid()`.execute(k);
          return r.rows[0]!.n === 0;
        }, 'la conexión de la api muerta cerrada');
      }
      await sql`drop trigger pausa_cap ${sql.raw(pg ? 'on auditoria' : '')}`.execute(k);

      // Nothing of the alert survived the kill: no identity, no exercise.
      const alertas = () =>
        k
          .selectFrom('alertas_cap')
          .selectAll()
          .where('identificador', '=', IDENTIFICADOR)
          .execute();
      const ejercicios = () =>
        k
          .selectFrom('ejercicios')
          .select(['id_ejercicio', 'procedencia', 'aprobacion', 'destinatarios'])
          .execute();
      expect(await alertas()).toEqual([]);
      expect(await ejercicios()).toEqual([]);

      // The same alert again, to the api started again: exactly one exercise, pending approval.
      const segunda = await levantar();
      const r = await pedir(url, 'POST', '/cap/', {
        token: segunda.token,
        rawBody: ALERTA,
        headers: { 'content-type': 'application/xml' },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.accion).toBe('creado');
      const id = r.body.id_ejercicio as number;
      expect(await ejercicios()).toEqual([
        { id_ejercicio: id, procedencia: 'cap', aprobacion: 'pendiente', destinatarios: 2 },
      ]);
      expect((await alertas()).map((a) => a.id_ejercicio)).toEqual([id]);
      // And once more: the identity is taken now, nothing new.
      const otra = await pedir(url, 'POST', '/cap/', {
        token: segunda.token,
        rawBody: ALERTA,
        headers: { 'content-type': 'application/xml' },
      });
      expect(otra.status).toBe(409);
      expect(otra.body.mensaje).toBe(
        `La alerta CAP ${IDENTIFICADOR} de ${REMITENTE} ya se recibió (ejercicio ${id}): no se crea otra vez`,
      );
      expect(await ejercicios()).toHaveLength(1);
      await matar(segunda.h);
    },
  );
});
