import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bitacora, conCabeceras } from '@pregon/api/testing/cabeceras';
import { agenteDePrueba, type AgenteDePrueba } from './agente-de-prueba.ts';

// Issue 49.4 for the telephony agent: the security headers on every answer (with the policy of
// answers that are never pages) and query values kept out of its log.

const SIN_DOCUMENTO =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

describe('telephony agent: security headers and log', () => {
  let agente: AgenteDePrueba;
  const log = bitacora();
  beforeAll(async () => {
    agente = await agenteDePrueba({ logLevel: 'info' }, { logStream: log.stream });
  });
  afterAll(async () => agente?.cerrar());

  it('404s, refusals and answers carry the headers; a query value never reaches the log', async () => {
    const r = await fetch(`${agente.url}/no-existe/?clave=secreto-del-agente`);
    expect(r.status).toBe(404);
    conCabeceras(r.headers, SIN_DOCUMENTO);
    const sinToken = await fetch(`${agente.url}/trunks/sip/`);
    expect(sinToken.status).toBe(401);
    conCabeceras(sinToken.headers, SIN_DOCUMENTO);
    const ok = await fetch(`${agente.url}/trunks/sip/?token=otro-secreto`, {
      headers: { authorization: agente.tokens.consulta },
    });
    expect(ok.status).toBe(200);
    conCabeceras(ok.headers, SIN_DOCUMENTO);
    await expect.poll(() => log.texto()).toContain('/no-existe/?clave=[oculto]');
    expect(log.texto()).toContain('/trunks/sip/?token=[oculto]');
    expect(log.texto()).not.toContain('secreto-del-agente');
    expect(log.texto()).not.toContain('otro-secreto');
  });
});
