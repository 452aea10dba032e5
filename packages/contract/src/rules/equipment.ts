/** Which equipment the 'Equipo' select offers for the chosen exercise type (SPEC 9). */
import { NOMBRE_MENSAJERIA, type IdTipoEjercicio, type Protocolo } from '../constants.ts';
import type { ClaveMensaje } from '../messages.ts';

/** Keywords per type: an equipment is offered when its alias contains one, ignoring case. */
export const PALABRAS_EQUIPO: Readonly<Record<IdTipoEjercicio, readonly string[]>> = {
  1: ['SMS', 'MENSAJES'],
  2: ['LLAMADAS', 'LLAMADA', 'CALL', 'CALLS'],
  3: [NOMBRE_MENSAJERIA.toUpperCase()],
  4: ['QUIZ', 'CUESTIONARIO', 'CUESTIONARIOS'],
};

/** Whether an alias fits a type; an unknown type fits nothing. */
export function equipoParaTipo(alias: string | null | undefined, tipo: number | string): boolean {
  const palabras = PALABRAS_EQUIPO[Number(tipo) as IdTipoEjercicio] ?? [];
  const nombre = (alias ?? '').toUpperCase();
  return palabras.some((p) => nombre.includes(p));
}

/** Equipment offered for a type; with no type chosen (undefined, null or ''), all of it. */
export function equiposParaTipo<T extends { alias?: string | null }>(
  equipos: readonly T[],
  tipo?: number | string | null,
): T[] {
  if (tipo === undefined || tipo === null || String(tipo).trim() === '') return [...equipos];
  return equipos.filter((e) => equipoParaTipo(e.alias, tipo));
}

/** Exercise types a device with this alias is offered for (the device form's live preview). */
export function tiposParaAlias(alias: string | null | undefined): IdTipoEjercicio[] {
  return (Object.keys(PALABRAS_EQUIPO).map(Number) as IdTipoEjercicio[]).filter((t) =>
    equipoParaTipo(alias, t),
  );
}

/** One credential a protocol's adapter reads: its key in `credenciales` and whether it is a
 * secret (shown as a password field). */
export interface CampoCredencial {
  clave: string;
  secreto: boolean;
  etiqueta: ClaveMensaje;
  /** Shown under the form's 'Opciones avanzadas' (the default suits most gateways). */
  avanzado?: true;
  /** A several-line value (a PEM certificate). */
  multilinea?: true;
}

/** The credentials each protocol's adapter reads (apps/api/src/dispatcher/canal-*.ts and the
 * AMI login of docs/telefonia.md). */
export const CAMPOS_CREDENCIALES: Readonly<Record<Protocolo, readonly CampoCredencial[]>> = {
  smpp: [
    { clave: 'system_id', secreto: false, etiqueta: 'credSystemId' },
    { clave: 'password', secreto: true, etiqueta: 'campoContrasena' },
    { clave: 'source_addr', secreto: false, etiqueta: 'credOrigen' },
    { clave: 'system_type', secreto: false, etiqueta: 'credSystemType', avanzado: true },
    { clave: 'interface_version', secreto: false, etiqueta: 'credVersionSmpp', avanzado: true },
    { clave: 'codigo_pais', secreto: false, etiqueta: 'credCodigoPais', avanzado: true },
    { clave: 'data_coding', secreto: false, etiqueta: 'credDataCoding', avanzado: true },
    { clave: 'gsm_empaquetado', secreto: false, etiqueta: 'credGsmEmpaquetado', avanzado: true },
    { clave: 'concatenacion', secreto: false, etiqueta: 'credConcatenacion', avanzado: true },
    { clave: 'dest_addr_ton', secreto: false, etiqueta: 'credDestTon', avanzado: true },
    { clave: 'dest_addr_npi', secreto: false, etiqueta: 'credDestNpi', avanzado: true },
    { clave: 'source_addr_ton', secreto: false, etiqueta: 'credOrigenTon', avanzado: true },
    { clave: 'source_addr_npi', secreto: false, etiqueta: 'credOrigenNpi', avanzado: true },
    { clave: 'tls_verificar', secreto: false, etiqueta: 'credTlsVerificar', avanzado: true },
    {
      clave: 'tls_ca',
      secreto: false,
      etiqueta: 'credTlsCa',
      avanzado: true,
      multilinea: true,
    },
  ],
  android: [
    { clave: 'usuario', secreto: false, etiqueta: 'campoUsuario' },
    { clave: 'password', secreto: true, etiqueta: 'campoContrasena' },
    { clave: 'sims', secreto: false, etiqueta: 'credSims' },
    { clave: 'sim', secreto: false, etiqueta: 'credSim' },
    { clave: 'ttl', secreto: false, etiqueta: 'credTtl' },
  ],
  whatsapp: [
    { clave: 'phone_number_id', secreto: false, etiqueta: 'credPhoneNumberId' },
    { clave: 'token', secreto: true, etiqueta: 'credToken' },
    { clave: 'app_secret', secreto: true, etiqueta: 'credAppSecret' },
    { clave: 'verify_token', secreto: true, etiqueta: 'credVerifyToken' },
  ],
  asterisk: [
    { clave: 'usuario', secreto: false, etiqueta: 'campoUsuario' },
    { clave: 'secreto', secreto: true, etiqueta: 'credSecreto' },
    { clave: 'troncal', secreto: false, etiqueta: 'credTroncal' },
    { clave: 'callerid', secreto: false, etiqueta: 'credCallerId' },
  ],
};

/** The credentials object to send from a form's values: the protocol's non-empty fields, or
 * undefined when every field was left empty (the stored credentials are kept). */
export function credencialesDeFormulario(
  protocolo: Protocolo,
  valores: Readonly<Record<string, string | undefined>>,
): Record<string, string> | undefined {
  const r: Record<string, string> = {};
  for (const c of CAMPOS_CREDENCIALES[protocolo]) {
    const v = valores[c.clave]?.trim();
    if (v) r[c.clave] = v;
  }
  return Object.keys(r).length > 0 ? r : undefined;
}
