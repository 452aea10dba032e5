/**
 * zod schemas of the closed sets in constants.ts. They live apart so that what reads only the
 * constants (the web's first screen: the router, the session, the guard) does not load zod.
 */
import { z } from 'zod';
import { CANALES, ESTATUS_DESTINATARIO, ORDENES, PROTOCOLOS, ROLES } from './constants.ts';

/** zod enum of the start channels. */
export const CanalSchema = z.enum(CANALES);
/** zod enum of the user roles. */
export const RolSchema = z.enum(ROLES);
/** zod enum of the device protocols. */
export const ProtocoloSchema = z.enum(PROTOCOLOS);
/** zod enum of the recipient orders. */
export const OrdenSchema = z.enum(ORDENES);
/** zod enum of the recipient states. */
export const EstatusDestinatarioSchema = z.enum(ESTATUS_DESTINATARIO);
