/** The AMI package: wire format (protocolo.ts) and client (cliente.ts). */
export * from './protocolo.ts';
export * from './cliente.ts';
