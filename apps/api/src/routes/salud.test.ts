import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrancarDespachador } from '../dispatcher/index.ts';
import { CONFIG_PRUEBA } from '@pregon/despacho/testing/comun';
import {
  levantarApi,
  MOTORES,
  PG_ADMIN_URL,
  pedir,
  type ApiDePrueba,
} from '../../testing/entorno.ts';

// GET /health over real HTTP: the fields it always had (status, db), each part's state (the
// database, the dispatcher of the process, the telephony agent at PBX_BASE, the simulators at
// SIM_CONTROL_URL) seen going down and back, and 503 when the database stops answering.

/** A server answering GET /health on a free loopback port, as the agent and the simulators do. */
async function servidorSalud(
  puerto = 0,
): Promise<{ url: string; puerto: number; cerrar: () => Promise<void> }> {
  const s = http.createServer((req, res) => {
    res.writeHead(req.url === '/health' ? 200 : 404, { 'content-type': 'application/json' });
    res.end('{"status":200}');
  });
  await new Promise<void>((r) => s.listen(puerto, '127.0.0.1', r));
  const p = (s.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${p}`,
    puerto: p,
    cerrar: () => new Promise((r) => (s.closeAllConnections(), s.close(() => r()))),
  };
}

for (const motor of MOTORES) {
  describe(`/health por partes (${motor})`, () => {
    let api: ApiDePrueba;
    let agente: Awaited<ReturnType<typeof servidorSalud>>;
    let simuladores: Awaited<ReturnType<typeof servidorSalud>>;
    beforeAll(async () => {
      agente = await servidorSalud();
      simuladores = await servidorSalud();
      api = await levantarApi(motor, {
        PBX_BASE: agente.url,
        SIM_CONTROL_URL: `${simuladores.url}/`,
      });
    });
    afterAll(async () => {
      await api?.cerrar().catch(() => undefined);
      await agente?.cerrar();
      await simuladores?.cerrar();
    });

    it('sin despachador en el proceso, y sin agente ni simuladores configurados', async () => {
      const otra = await levantarApi(motor);
      try {
        const h = await pedir(otra.url, 'GET', '/health');
        expect(h.status).toBe(200);
        expect(h.body).toEqual({
          status: 200,
          db: motor,
          partes: {
            base_de_datos: { estado: 'activo' },
            despachador: { estado: 'sin_configurar' },
            agente_telefonia: { estado: 'sin_configurar' },
            simuladores: { estado: 'sin_configurar' },
          },
        });
      } finally {
        await otra.cerrar();
      }
    });

    it('cada parte activa; el agente caído se ve y vuelve; el despachador detenido se ve', async () => {
      const despachador = await arrancarDespachador(api.ctx.db, CONFIG_PRUEBA, {
        eventos: api.ctx.eventos,
      });
      api.ctx.despachador = despachador;
      let h = await pedir(api.url, 'GET', '/health');
      expect(h.status).toBe(200);
      expect(h.body).toEqual({
        status: 200,
        db: motor,
        partes: {
          base_de_datos: { estado: 'activo' },
          despachador: { estado: 'activo' },
          agente_telefonia: { estado: 'activo' },
          simuladores: { estado: 'activo' },
        },
      });

      const puerto = agente.puerto;
      await agente.cerrar();
      h = await pedir(api.url, 'GET', '/health');
      expect(h.status).toBe(200);
      expect(h.body.partes.agente_telefonia).toEqual({
        estado: 'caido',
        detalle: `No responde en ${agente.url}/health`,
      });
      expect(h.body.partes.simuladores).toEqual({ estado: 'activo' });
      agente = await servidorSalud(puerto);
      expect((await pedir(api.url, 'GET', '/health')).body.partes.agente_telefonia).toEqual({
        estado: 'activo',
      });

      await despachador.detener();
      h = await pedir(api.url, 'GET', '/health');
      expect(h.body.partes.despachador).toEqual({
        estado: 'caido',
        detalle: 'El despachador de este proceso está detenido',
      });
    });

    it('la base de datos no responde: 503, y lo dice', async () => {
      if (motor === 'postgres') {
        const nombre = new URL(api.config.databaseUrl!).pathname.slice(1);
        const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
        await admin.connect();
        await admin.query(`drop database ${nombre} with (force)`);
        await admin.end();
      } else {
        await api.ctx.db.close();
      }
      const h = await pedir(api.url, 'GET', '/health');
      expect(h.status).toBe(503);
      expect(h.body.status).toBe(503);
      expect(h.body.db).toBe(motor);
      expect(h.body.partes.base_de_datos.estado).toBe('caido');
      expect(h.body.partes.base_de_datos.detalle).toMatch(/^La base de datos no responde: ./);
      expect(h.body.partes.agente_telefonia).toEqual({ estado: 'activo' });
    });
  });
}
