import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { msg } from '@pregon/contract/messages';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEquipo } from '../../testing/fabrica.ts';
import { crearContexto } from '../server.ts';
import { cargarClaveCredenciales } from '@pregon/servidor/auth/keys';
import { openDb } from '@pregon/db/database';
import { leerDestinosPermitidos } from '@pregon/despacho/destinos';
import {
  cifrarCredenciales,
  descifrarCredenciales,
  descifrarSecretoWebhook,
  usarClaveCredenciales,
} from '@pregon/db/credenciales';

// Issue 49.4: device credentials at rest. The column holds AES-256-GCM ciphertext, never the
// JSON; the key is a 0600 file beside the token keys; the SQLite file and its -wal/-shm are 0600
// in a 0700 folder.

const modo = (f: string) => fs.statSync(f).mode & 0o777;
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-cred-'));

describe('archivos de datos y clave de credenciales', () => {
  it('una carpeta de datos nueva queda 0700 y pregon.db, -wal y -shm 0600', async () => {
    const base = tmp();
    const file = path.join(base, 'datos', 'pregon.db');
    const db = openDb({ sqliteFile: file });
    try {
      db.sqlite!.exec('create table t (x text); insert into t values (1)');
      expect(modo(path.dirname(file))).toBe(0o700);
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(modo(f)).toBe(0o600);
    } finally {
      await db.close();
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  it('un pregon.db y un -wal de antes, legibles por todos, se cierran a 0600 al abrir', async () => {
    const base = tmp();
    const file = path.join(base, 'pregon.db');
    const viejo = new Database(file);
    viejo.exec('create table t (x text)');
    viejo.close();
    fs.writeFileSync(`${file}-wal`, '');
    fs.chmodSync(file, 0o644);
    fs.chmodSync(`${file}-wal`, 0o644);
    const db = openDb({ sqliteFile: file });
    try {
      expect(modo(file)).toBe(0o600);
      expect(modo(`${file}-wal`)).toBe(0o600);
    } finally {
      await db.close();
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  it('credenciales.key: 32 bytes creados al primer arranque, 0600, los mismos al volver', () => {
    const base = tmp();
    try {
      const dir = path.join(base, 'data');
      const clave = cargarClaveCredenciales(dir);
      const ruta = path.join(dir, 'credenciales.key');
      expect(clave.length).toBe(32);
      expect(modo(dir)).toBe(0o700);
      expect(modo(ruta)).toBe(0o600);
      fs.chmodSync(ruta, 0o644);
      expect(cargarClaveCredenciales(dir).equals(clave)).toBe(true);
      expect(modo(ruta)).toBe(0o600);
      fs.writeFileSync(ruta, 'corta');
      expect(() => cargarClaveCredenciales(dir)).toThrow(
        msg('claveCredencialesInvalida', { ruta }),
      );
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  it('un texto alterado o de una clave desconocida no se lee (se trata como sin credenciales)', () => {
    usarClaveCredenciales(Buffer.alloc(32, 7));
    const c = cifrarCredenciales({ password: 'secreta' })!;
    expect(descifrarCredenciales(c)).toEqual({ password: 'secreta' });
    const [v, id, iv, tag, texto] = c.split(':');
    const otro = Buffer.from(texto!, 'base64');
    otro[0]! ^= 1;
    expect(descifrarCredenciales([v, id, iv, tag, otro.toString('base64')].join(':'))).toEqual({});
    expect(descifrarCredenciales(['v1', 'deadbeef', iv, tag, texto].join(':'))).toEqual({});
    // Plain JSON of before the encryption is still read.
    expect(descifrarCredenciales('{"password":"vieja"}')).toEqual({ password: 'vieja' });
  });
});

describe.each(MOTORES)('credenciales cifradas en la base (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
  });
  afterAll(async () => api?.cerrar());
  const columna = async (id: number) =>
    (
      await api.ctx.db.kysely
        .selectFrom('equipos')
        .select('credenciales')
        .where('id_equipo', '=', id)
        .executeTakeFirstOrThrow()
    ).credenciales!;

  it('la columna guarda texto cifrado, no el JSON, y ningún archivo de la base lleva el secreto', async () => {
    const secreto = 'Contraseña-Que-No-Debe-Verse-49';
    const r = await pedir(api.url, 'POST', '/equipos/', {
      token,
      body: {
        alias: 'SMS cifrado',
        protocolo: 'smpp',
        url: 'smpp://127.0.0.1:2775',
        credenciales: { system_id: 'pregon', password: secreto },
      },
    });
    expect(r.status).toBe(200);
    const texto = await columna(r.body.id_equipo);
    expect(texto).toMatch(/^v1:[0-9a-f]{8}:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(texto).not.toContain(secreto);
    expect(texto).not.toContain('system_id');
    expect(() => JSON.parse(texto)).toThrow();
    expect(descifrarCredenciales(texto)).toEqual({ system_id: 'pregon', password: secreto });
    expect(modo(path.join(api.config.dataDir, 'credenciales.key'))).toBe(0o600);
    if (motor === 'sqlite') {
      const file = path.join(api.config.dataDir, 'pregon.db');
      for (const f of [file, `${file}-wal`, `${file}-shm`]) {
        expect(modo(f)).toBe(0o600);
        expect(fs.readFileSync(f).includes(Buffer.from(secreto, 'utf8'))).toBe(false);
      }
    }
  });

  it('las filas en JSON de antes se cifran al arrancar el api y se siguen leyendo', async () => {
    const id = await crearEquipo(api.ctx.db, {
      protocolo: 'android',
      credenciales: { usuario: 'pregon', password: 'vieja-en-claro' },
    });
    expect(await columna(id)).toBe('{"usuario":"pregon","password":"vieja-en-claro"}');
    // A restart of the api over the same DATA_DIR and database.
    const { ctx } = await crearContexto(api.config);
    await ctx.db.close();
    const texto = await columna(id);
    expect(texto).toMatch(/^v1:/);
    expect(texto).not.toContain('vieja-en-claro');
    expect(descifrarCredenciales(texto)).toEqual({ usuario: 'pregon', password: 'vieja-en-claro' });
  });

  // Issue 47.4: the webhook's signing secret, which the sender needs back, is kept the same way.
  const secretoGuardado = async (id: number) =>
    (
      await api.ctx.db.kysely
        .selectFrom('webhooks')
        .select('secreto')
        .where('id_webhook', '=', id)
        .executeTakeFirstOrThrow()
    ).secreto;

  it('el secreto de firma de un webhook se guarda cifrado y solo se lee como secreto de webhook', async () => {
    api.ctx.webhooks.destinos = leerDestinosPermitidos('127.0.0.1/32');
    const alta = await pedir(api.url, 'POST', '/integraciones/webhooks/', {
      token,
      body: { url: 'http://127.0.0.1:9/cifrado', eventos: 'ejercicio.creado' },
    });
    expect(alta.status, JSON.stringify(alta.body)).toBe(200);
    const secreto = alta.body.secreto as string;
    expect(secreto).toMatch(/^whsec_/);
    const texto = await secretoGuardado(alta.body.data.id_webhook);
    expect(texto).toMatch(/^v1:[0-9a-f]{8}:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(texto).not.toContain(secreto.slice('whsec_'.length));
    expect(descifrarSecretoWebhook(texto)).toBe(secreto);
    // Bound to its column: read as a device's credentials it fails its tag, and the other way.
    expect(descifrarCredenciales(texto)).toEqual({});
    expect(descifrarSecretoWebhook(cifrarCredenciales({ password: secreto })!)).toBeUndefined();
    if (motor === 'sqlite') {
      const file = path.join(api.config.dataDir, 'pregon.db');
      for (const f of [file, `${file}-wal`])
        expect(fs.readFileSync(f).includes(Buffer.from(secreto, 'utf8'))).toBe(false);
    }
  });

  it('un secreto de webhook guardado en claro se cifra al arrancar el api y firma igual', async () => {
    const { id_webhook } = await api.ctx.db.kysely
      .insertInto('webhooks')
      .values({
        url: 'http://127.0.0.1:9/heredado',
        eventos: 'ejercicio.creado',
        secreto: 'whsec_heredado-en-claro',
        creado: Date.now(),
        creado_por: 'admin',
      })
      .returning('id_webhook')
      .executeTakeFirstOrThrow();
    const { ctx } = await crearContexto(api.config);
    await ctx.db.close();
    const texto = await secretoGuardado(Number(id_webhook));
    expect(texto).toMatch(/^v1:/);
    expect(texto).not.toContain('heredado-en-claro');
    expect(descifrarSecretoWebhook(texto)).toBe('whsec_heredado-en-claro');
  });
});
