/**
 * The Spanish column titles of the spreadsheets built from the reports (issue 26.7). The api's
 * JSON keeps the SPEC's field names (telefono, fecha_envio, reactivo_texto_N…); only the .xlsx a
 * person opens reads 'Teléfono', 'Fecha de envío' and, for 'Reporte 2', each question's text.
 */
import { msg, type ClaveMensaje } from '../messages.ts';

const TITULOS: Readonly<Record<string, ClaveMensaje>> = {
  n: 'columnaNumeroFila',
  telefono: 'columnaTelefono',
  nombre: 'columnaNombre',
  realizado: 'columnaRealizado',
  fecha_envio: 'columnaFechaEnvio',
  hora_envio: 'columnaHoraEnvio',
  recibida: 'columnaRecibida',
  resultado: 'columnaResultado',
  reactivo: 'columnaPreguntaORespuesta',
  total: 'columnaTotalReporte',
  orden: 'columnaOrden',
  tipo: 'columnaTipo',
  digito: 'columnaDigito',
  // A drill's automatic fallback (issue 25.2).
  respaldo_canal: 'columnaRespaldoCanal',
  respaldo_resultado: 'columnaRespaldoResultado',
  respaldo_fecha: 'columnaRespaldoFecha',
  respaldo_hora: 'columnaRespaldoHoraEnvio',
};

/** Fields a report's spreadsheet leaves out: `estatus` is the code of what `resultado` says in
 * words, so the status showed twice. */
export const CAMPOS_OMITIDOS_HOJA: ReadonlySet<string> = new Set(['estatus']);

const PREGUNTA = /^reactivo_texto_(\d+)$/;

/** The title of a report field: its Spanish name; reactivo_texto_N reads 'N. {question text}'
 * when `preguntas` knows question N, 'N. Pregunta' otherwise; unknown fields stay as they are. */
export function tituloColumnaReporte(
  campo: string,
  preguntas: ReadonlyMap<number, string> = new Map(),
): string {
  const p = PREGUNTA.exec(campo);
  if (p) {
    const n = Number(p[1]);
    return msg('columnaPreguntaTexto', {
      n,
      texto: preguntas.get(n)?.trim() || msg('campoPregunta'),
    });
  }
  const clave = TITULOS[campo];
  return clave ? msg(clave) : campo;
}
