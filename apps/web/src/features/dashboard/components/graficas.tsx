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

// The dashboard's charts (recharts, imported only by the dashboard pages, so it stays out of the
// list's first screen). Animations are off: data arrives every half second.

const hora = (t: number) =>
  new Date(t).toLocaleTimeString('es-MX', {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });

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
      <BarChart data={datos} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
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

/** The reach curve: recipients processed and reached over time, with the 50/90/100 % marks. */
export function CurvaAlcance({ curva, hitos }: { curva: readonly PuntoCurva[]; hitos: Hitos }) {
  const marcas = (
    [
      [50, hitos.p50],
      [90, hitos.p90],
      [100, hitos.p100],
    ] as const
  ).filter((m): m is readonly [50 | 90 | 100, number] => m[1] !== null);
  // Marks reached at the same instant share one line and one label ('90 % · 100 %'), so their
  // labels are not drawn over each other.
  const lineas = new Map<number, string[]>();
  for (const [pct, t] of marcas) lineas.set(t, [...(lineas.get(t) ?? []), `${pct} %`]);
  return (
    <ResponsiveContainer width="100%" height={260}>
      <LineChart data={[...curva]} margin={{ top: 16, right: 16, bottom: 8, left: 8 }}>
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
        {[...lineas].map(([t, etiquetas]) => (
          <ReferenceLine
            key={t}
            x={t}
            stroke="#1d4ed8"
            strokeDasharray="4 2"
            label={{ value: etiquetas.join(' · '), position: 'top', fontSize: 12 }}
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
      <BarChart data={datos} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 8 }}>
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
