/**
 * One record per device protocol (issue 44.3, docs/canales.md 'Añadir un canal'): everything the
 * product reads per protocol outside its channel adapter. The protocol list (PROTOCOLOS, and so
 * the zod enum and the CHECK of equipos.protocolo), its label, start channel, url form and
 * pre-start probe, credential fields and section, and what it can do (replies, receipts, the
 * fallback it sends, the opt-out list its replies feed) are all read from here; a new protocol is
 * one entry below plus its adapter (packages/despacho/src/canales/<protocolo>/canal.ts).
 */
import type { Canal } from './constants.ts';
import type { ClaveMensaje } from './messages.ts';
import type { CanalBaja } from './rules/bajas.ts';
import type { CanalRespaldo } from './rules/respaldo.ts';

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
  /** The adapter cannot work without it: a device is not saved while it is missing. */
  obligatorio?: true;
}

/** The form of a device's url per protocol: accepted schemes (with the default port of each when
 * the url may leave it out) and the catalogue text showing the form. */
export interface FormaUrl {
  esquemas: Readonly<Record<string, number | null>>;
  /** SMPP and AMI name their port: the defaults differ by gateway and TLS. */
  puertoObligatorio: boolean;
  /** Only a base address: no path, query or fragment (SMPP and AMI speak TCP, not HTTP). */
  soloHost: boolean;
  forma: ClaveMensaje;
  /** How the pre-start check asks whether the gateway answers: a TCP connect (SMPP, AMI) or an
   * HTTP request to the url (Android, WhatsApp). */
  sonda: 'tcp' | 'http';
  /** The url the adapter uses when the device's is empty (AMI: the local Asterisk). */
  vacia?: string;
}

/** What a protocol's devices can do, read by the rules that would otherwise list protocols. */
export interface CapacidadesProtocolo {
  /** The gateway delivers people's replies (SMPP deliver_sm, the Android and WhatsApp webhooks). */
  respuestas: boolean;
  /** The gateway reports each message's delivery (SMPP receipts, Android states, WhatsApp
   * statuses); a call's outcome is its own, not a receipt. */
  recibos: boolean;
  /** The automatic fallback (rules/respaldo.ts) its devices may send, or null. */
  respaldo: CanalRespaldo | null;
  /** The opt-out list (rules/bajas.ts) its replies feed and its drills honour, or null (calls). */
  bajas: CanalBaja | null;
  /** Its devices place calls through a dial template (`equipos.marcado`, MARCADO_DEFECTO when
   * empty: the trunk it names becomes a required credential). */
  marcado: boolean;
}

/** Everything the product reads about one protocol. */
export interface DescriptorProtocolo {
  /** Catalogue label ('SMPP', 'Pasarela Android'…). */
  etiqueta: ClaveMensaje;
  /** The start channel it serves (rules/start.ts). */
  canal: Canal;
  /** How its adapter reads a device's url, and how the pre-start check probes it. */
  url: FormaUrl;
  /** The credentials its adapter reads (the device form's fields, `[]` for none). */
  credenciales: readonly CampoCredencial[];
  /** The section of `credenciales` its adapter looks under ({smpp: {…}}; AMI's is 'ami'). */
  seccion: string;
  capacidades: CapacidadesProtocolo;
}

// The records; PROTOCOLO below gives them their one type.
const REGISTRO = {
  smpp: {
    etiqueta: 'protocoloSmpp',
    canal: 'sms',
    url: {
      esquemas: { 'smpp:': 2775, 'ssmpp:': 3550 },
      puertoObligatorio: true,
      soloHost: true,
      forma: 'formaUrlSmpp',
      sonda: 'tcp',
    },
    credenciales: [
      { clave: 'system_id', secreto: false, etiqueta: 'credSystemId', obligatorio: true },
      { clave: 'password', secreto: true, etiqueta: 'campoContrasena', obligatorio: true },
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
    seccion: 'smpp',
    capacidades: { respuestas: true, recibos: true, respaldo: 'sms', bajas: 'sms', marcado: false },
  },
  android: {
    etiqueta: 'protocoloAndroid',
    canal: 'sms',
    url: {
      esquemas: { 'http:': 80, 'https:': 443 },
      puertoObligatorio: false,
      soloHost: false,
      forma: 'formaUrlAndroid',
      sonda: 'http',
    },
    credenciales: [
      { clave: 'usuario', secreto: false, etiqueta: 'campoUsuario', obligatorio: true },
      { clave: 'password', secreto: true, etiqueta: 'campoContrasena', obligatorio: true },
      { clave: 'sims', secreto: false, etiqueta: 'credSims' },
      { clave: 'sim', secreto: false, etiqueta: 'credSim' },
      { clave: 'ttl', secreto: false, etiqueta: 'credTtl' },
    ],
    seccion: 'android',
    capacidades: { respuestas: true, recibos: true, respaldo: 'sms', bajas: 'sms', marcado: false },
  },
  whatsapp: {
    etiqueta: 'protocoloWhatsapp',
    canal: 'whatsapp',
    url: {
      esquemas: { 'https:': 443, 'http:': 80 },
      puertoObligatorio: false,
      soloHost: false,
      forma: 'formaUrlWhatsapp',
      sonda: 'http',
    },
    credenciales: [
      {
        clave: 'phone_number_id',
        secreto: false,
        etiqueta: 'credPhoneNumberId',
        obligatorio: true,
      },
      { clave: 'token', secreto: true, etiqueta: 'credToken', obligatorio: true },
      { clave: 'app_secret', secreto: true, etiqueta: 'credAppSecret' },
      { clave: 'verify_token', secreto: true, etiqueta: 'credVerifyToken' },
    ],
    seccion: 'whatsapp',
    capacidades: {
      respuestas: true,
      recibos: true,
      respaldo: 'whatsapp',
      bajas: 'whatsapp',
      marcado: false,
    },
  },
  asterisk: {
    etiqueta: 'protocoloAsterisk',
    canal: 'calls',
    url: {
      esquemas: { 'ami:': 5038 },
      puertoObligatorio: true,
      soloHost: true,
      forma: 'formaUrlAsterisk',
      sonda: 'tcp',
      vacia: 'ami://127.0.0.1:5038',
    },
    credenciales: [
      { clave: 'usuario', secreto: false, etiqueta: 'campoUsuario', obligatorio: true },
      { clave: 'secreto', secreto: true, etiqueta: 'credSecreto', obligatorio: true },
      { clave: 'troncal', secreto: false, etiqueta: 'credTroncal' },
      { clave: 'callerid', secreto: false, etiqueta: 'credCallerId' },
    ],
    seccion: 'ami',
    capacidades: { respuestas: false, recibos: false, respaldo: null, bajas: null, marcado: true },
  },
} satisfies Readonly<Record<string, DescriptorProtocolo>>;

/** One device protocol. */
export type Protocolo = keyof typeof REGISTRO;

/** The protocols, one record each (the dispatcher registers a channel under each key). */
export const PROTOCOLO: Readonly<Record<Protocolo, DescriptorProtocolo>> = REGISTRO;

/** Device protocols a channel adapter is registered under (ARCHITECTURE 3 and 5): the keys of
 * PROTOCOLO, in its order. */
export const PROTOCOLOS = Object.keys(PROTOCOLO) as [Protocolo, ...Protocolo[]];

/** The record of a protocol, or undefined for a name that is none (a stored or received value). */
export function descriptorDe(
  protocolo: string | null | undefined,
): DescriptorProtocolo | undefined {
  return protocolo && Object.hasOwn(PROTOCOLO, protocolo)
    ? PROTOCOLO[protocolo as Protocolo]
    : undefined;
}

/** Whether a protocol's devices dial through a template (`marcado`: Asterisk's). */
export const usaMarcado = (protocolo: string | null | undefined): boolean =>
  descriptorDe(protocolo)?.capacidades.marcado === true;

/** The protocols whose record answers yes to `si`, in PROTOCOLOS' order ('which protocols send
 * the SMS fallback', 'which drills the SMS opt-out list covers'). */
export function protocolosDonde(si: (d: DescriptorProtocolo) => boolean): Protocolo[] {
  return PROTOCOLOS.filter((p) => si(PROTOCOLO[p]));
}

/** A record over every protocol of one part of its descriptor (ETIQUETA_PROTOCOLO, FORMA_URL…). */
export function porProtocolo<T>(parte: (d: DescriptorProtocolo) => T): Record<Protocolo, T> {
  return Object.fromEntries(PROTOCOLOS.map((p) => [p, parte(PROTOCOLO[p])])) as Record<
    Protocolo,
    T
  >;
}
