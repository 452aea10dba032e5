// Every channel, one folder per protocol (issue 44.3): importing this registers each one's Canal
// (registrarCanal). What the rest of the product knows of a protocol (label, url form, credentials,
// probe, capabilities) is its record in packages/contract/src/protocolos.ts; docs/canales.md lists
// what a new one needs, and apps/api/src/dispatcher/canales.test.ts fails when a part is missing.
import './smpp/canal.ts';
import './android/canal.ts';
import './whatsapp/canal.ts';
import './asterisk/canal.ts';
