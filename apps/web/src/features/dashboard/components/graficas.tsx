import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { Hitos, PuntoCurva, TableroEjercicio } from '@pregon/contract/api/tableros';
import { msg } from '@pregon/contract/messages';
import { ETIQUETA_RESULTADO, LUZ_RESULTADO, RESULTADOS } from '@pregon/contract/rules/alcance';
import { COLOR_CANCELADO, COLOR_LUZ } from '../../../lib/colores.ts';
import { horaTexto } from '../../../lib/fecha.ts';

// The dashboard's charts (recharts, imported only by the dashboard pages, so it stays out of the
// list's first screen). Animations are off: data arrives every half second. Each chart is in the
// Tab order (recharts' keyboard layer: the arrows walk its points) and so carries a name, its
// card's title, as its <title> (issue 48.2: no focusable thing without a name).

const hora = horaTexto;

/** Outcomes as bars (rules/alcance.ts: an answered call by how it went), one per outcome that
 * has any, coloured by its light. */
export function GraficaResultados({
  porResultado,
}: {
  porResultado: TableroEjercicio['semaforo']['porResultado'];
}) {
  const datos = RESULTADOS.filter((r) => (porResultado[r] ?? 0) > 0).map((r) => ({
    estatus: r,
    nombre: msg(ETIQUETA_RESULTADO[r]),
    total: porResultado[r] ?? 0,
    color: LUZ_RESULTADO[r] === 'cancelado' ? COLOR_CANCELADO : COLOR_LUZ[LUZ_RESULTADO[r]],
  }));
  return (
    <ResponsiveContainer width="100%" height={260}>
      <BarChart
        data={datos}
        margin={{ top: 8, right: 8, bottom: 8, left: 8 }}
        title={msg('resultados')}
      >
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="nombre" interval={0} fontSize={12} />
        <YAxis allowDecimals={false} fontSize={12} />
        <Tooltip />
        <Bar dataKey="total" name={msg('columnaCantidad')} isAnimationActive={false}>
          {datos.map((d) => (
            <Cell key={d.estatus} fill={d.color} />
          ))}
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Share of the chart's width within which two marks' labels would overlap. */
const CERCANIA_ETIQUETAS = 0.1;

/**
 * The reach marks as lines: each mark keeps its line, but marks closer than CERCANIA_ETIQUETAS of
 * the time span share one label on the first of them ('90 % · 100 %'), so '90 %' and '100 %'
 * reached seconds apart are not drawn over each other (issue 26.7).
 */
export function lineasHitos(
  marcas: readonly (readonly [number, number])[],
  curva: readonly PuntoCurva[],
): { t: number; etiqueta?: string }[] {
  const ts = curva.map((p) => p.t);
  const span = ts.length ? Math.max(...ts) - Math.min(...ts) : 0;
  const lineas: { t: number; etiquetas: string[] }[] = [];
  for (const [pct, t] of [...marcas].sort((a, b) => a[1] - b[1])) {
    const grupo = lineas.findLast((l) => l.etiquetas.length > 0);
    if (grupo && t - grupo.t <= span * CERCANIA_ETIQUETAS) {
      grupo.etiquetas.push(`${pct} %`);
      if (t !== grupo.t) lineas.push({ t, etiquetas: [] });
    } else lineas.push({ t, etiquetas: [`${pct} %`] });
  }
  return lineas.map((l) => ({ t: l.t, etiqueta: l.etiquetas.join(' · ') || undefined }));
}

/** The reach curve: recipients processed and reached over time, with the 50/90/100 % marks. */
export function CurvaAlcance({ curva, hitos }: { curva: readonly PuntoCurva[]; hitos: Hitos }) {
  const marcas = (
    [
      [50, hitos.p50],
      [90, hitos.p90],
      [100, hitos.p100],
    ] as const
  ).filter((m): m is readonly [50 | 90 | 100, number] => m[1] !== null);
  const lineas = lineasHitos(marcas, curva);
  return (
    <ResponsiveContainer width="100%" height={260}>
      {/* Room on the right for a mark's label centred on the last instant ('50 % · 90 % · 100 %'
          on the curve's end was cut to '50 % · 90 %'). */}
      <LineChart
        data={[...curva]}
        margin={{ top: 16, right: 64, bottom: 8, left: 8 }}
        title={msg('curvaAlcance')}
      >
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis
          dataKey="t"
          type="number"
          domain={['dataMin', 'dataMax']}
          tickFormatter={hora}
          fontSize={12}
        />
        <YAxis allowDecimals={false} fontSize={12} />
        <Tooltip labelFormatter={(t) => hora(Number(t))} />
        <Legend />
        <Line
          type="monotone"
          dataKey="procesados"
          name={msg('procesados')}
          stroke="#64748b"
          dot={false}
          isAnimationActive={false}
        />
        <Line
          type="monotone"
          dataKey="alcanzados"
          name={msg('alcanzados')}
          stroke={COLOR_LUZ.verde}
          strokeWidth={2}
          dot={false}
          isAnimationActive={false}
        />
        {lineas.map(({ t, etiqueta }) => (
          <ReferenceLine
            key={t}
            x={t}
            stroke="#1d4ed8"
            strokeDasharray="4 2"
            label={etiqueta ? { value: etiqueta, position: 'top', fontSize: 12 } : undefined}
          />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}

/** One question of a quiz: the count of each answer. */
export function GraficaPregunta({
  pregunta,
}: {
  pregunta: NonNullable<TableroEjercicio['cuestionario']>['preguntas'][number];
}) {
  const datos = pregunta.respuestas.map((r) => ({
    nombre: `${r.digito}. ${r.respuesta}`,
    total: r.total,
  }));
  return (
    <ResponsiveContainer width="100%" height={200}>
      <BarChart
        data={datos}
        layout="vertical"
        margin={{ top: 4, right: 16, bottom: 4, left: 8 }}
        title={`${msg('preguntaN', { N: pregunta.numero })}: ${pregunta.reactivo}`}
      >
        <CartesianGrid strokeDasharray="3 3" horizontal={false} />
        <XAxis type="number" allowDecimals={false} fontSize={12} />
        <YAxis type="category" dataKey="nombre" width={140} fontSize={12} />
        <Tooltip />
        <Bar
          dataKey="total"
          name={msg('columnaCantidad')}
          fill="#1d4ed8"
          isAnimationActive={false}
        />
      </BarChart>
    </ResponsiveContainer>
  );
}
