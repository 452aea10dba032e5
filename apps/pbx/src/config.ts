import path from 'node:path';
import { destinoAmi } from '@pregon/ami';
import { IDIOMA_DEFECTO, idiomaValido } from '@pregon/contract/rules/dialplan';

/** Everything the telephony agent reads from the environment (`PBX_*`), with its defaults. */
export interface ConfigPbx {
  puerto: number;
  host: string;
  /** Lower-case PBX software name: the upload path's first segment. */
  software: string;
  sonidosDir: string;
  dialplanDir: string;
  pjsipDir: string;
  /** `ami://host:port`, or '' to write without reloading (no Asterisk on this host). */
  amiUrl: string;
  amiUsuario: string;
  amiSecreto: string;
  /** PEM file with the api's public token key (the agent never holds the private key). */
  clavePublica: string;
  /** The main api's URL, asked whether each token's session still stands (PBX_API_URL). */
  apiUrl: string;
  /** Origins allowed by CORS (the web app's). */
  origenes: string[];
  logLevel: string;
  /** Largest audio upload, in bytes (10 MB) and in seconds (30 minutes). */
  maxBytesAudio: number;
  maxSegundosAudio: number;
  /** The prompts' language the dialplan sets (PBX_IDIOMA, as the api renders it). */
  idioma: string;
  /** Asterisk's sounds folder, holding one folder per language (PBX_SONIDOS_SISTEMA_DIR). */
  sonidosSistemaDir: string;
}

/** Reads the agent's configuration; the embedded default keeps its folders under DATA_DIR/pbx. */
export function cargarConfigPbx(env: NodeJS.ProcessEnv = process.env): ConfigPbx {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  const base = path.join(dataDir, 'pbx');
  const puertoApi = env.PORT ?? '8080';
  const puerto = Number(env.PBX_PORT ?? 8090);
  if (!Number.isInteger(puerto) || puerto < 0 || puerto > 65535)
    throw new Error(`PBX_PORT inválido: '${env.PBX_PORT}'`);
  const software = (env.PBX_SOFTWARE ?? 'asterisk').toLowerCase();
  if (!/^[a-z0-9_-]{1,32}$/.test(software))
    throw new Error(`PBX_SOFTWARE inválido: '${env.PBX_SOFTWARE}' (letras, dígitos, _ y -)`);
  const amiUrl = env.PBX_AMI_URL ?? '';
  if (amiUrl) {
    let valida = false;
    try {
      const d = destinoAmi(amiUrl);
      valida = Number.isInteger(d.puerto) && d.puerto > 0 && d.puerto <= 65535;
    } catch {
      valida = false;
    }
    if (!valida) throw new Error(`PBX_AMI_URL inválida: '${amiUrl}' (use ami://host:5038)`);
  }
  const apiUrl = (env.PBX_API_URL || `http://127.0.0.1:${puertoApi}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(apiUrl))
    throw new Error(`PBX_API_URL inválida: '${apiUrl}' (use http://host:puerto del api principal)`);
  const idioma = env.PBX_IDIOMA || IDIOMA_DEFECTO;
  if (!idiomaValido(idioma))
    throw new Error(`PBX_IDIOMA inválido: '${idioma}' (un idioma de Asterisk: es, es_MX, en_US…)`);
  return {
    puerto,
    host: env.PBX_HOST ?? '127.0.0.1',
    software,
    sonidosDir: path.resolve(env.PBX_SONIDOS_DIR ?? path.join(base, 'sonidos')),
    dialplanDir: path.resolve(env.PBX_DIALPLAN_DIR ?? path.join(base, 'dialplan')),
    pjsipDir: path.resolve(env.PBX_PJSIP_DIR ?? path.join(base, 'pjsip')),
    amiUrl,
    amiUsuario: env.PBX_AMI_USUARIO ?? '',
    amiSecreto: env.PBX_AMI_SECRETO ?? '',
    clavePublica: path.resolve(env.PBX_CLAVE_PUBLICA ?? path.join(dataDir, 'jwt-publica.pem')),
    apiUrl,
    origenes: (env.PBX_ORIGENES ?? `http://localhost:${puertoApi},http://127.0.0.1:${puertoApi}`)
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    logLevel: env.LOG_LEVEL ?? 'info',
    maxBytesAudio: Number(env.PBX_MAX_BYTES_AUDIO ?? 10 * 1024 * 1024),
    maxSegundosAudio: Number(env.PBX_MAX_SEGUNDOS_AUDIO ?? 30 * 60),
    idioma,
    sonidosSistemaDir: path.resolve(env.PBX_SONIDOS_SISTEMA_DIR || '/var/lib/asterisk/sounds'),
  };
}
