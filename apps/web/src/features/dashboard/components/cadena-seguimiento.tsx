import { Card, Col, Empty, Row, Statistic, Table, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import type { Eslabon } from '@pregon/contract/api/cadena';
import { msg } from '@pregon/contract/messages';
import { COLOR_LUZ } from '../../../lib/colores.ts';
import { fechaHoraTexto } from '../../../lib/fecha.ts';
import { useCadena } from '../api/obtener-cadena.ts';
import { CurvaAlcance } from './graficas.tsx';

/**
 * 'Cadena de seguimiento' (issue 25.3): on the dashboard of an exercise with follow-ups or an
 * automatic fallback (or of a follow-up), every link of the chain with its recipients reached (a
 * drill's fallback as a link of its own, 'SMS de respaldo', right after its drill), the persons of the chain
 * reached by any attempt and never reached, and the chain's reach curve (each person counted once,
 * at the first attempt that reached them). Nothing when the exercise is alone.
 */
export function CadenaSeguimiento({ id, estado }: { id: number; estado: string | undefined }) {
  const consulta = useCadena(id, estado);
  const c = consulta.data?.cadena;
  if (!c) return null;
  return (
    <Card
      title={msg('cadenaSeguimiento')}
      className="cadena-seguimiento"
      style={{ marginBottom: 16 }}
    >
      <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
        <Col xs={24} md={8}>
          <Statistic className="cadena-personas" title={msg('cadenaPersonas')} value={c.personas} />
        </Col>
        <Col xs={24} md={8}>
          <Statistic
            className="cadena-alcanzadas"
            title={msg('cadenaAlcanzadas')}
            value={c.alcanzadas}
            valueStyle={{ color: COLOR_LUZ.verde }}
          />
        </Col>
        <Col xs={24} md={8}>
          <Statistic
            className="cadena-nunca"
            title={msg('cadenaNunca')}
            value={c.nunca}
            valueStyle={{ color: COLOR_LUZ.rojo }}
          />
        </Col>
      </Row>
      <Table<Eslabon>
        size="small"
        pagination={false}
        rowKey="id_ejercicio"
        className="cadena-eslabones"
        dataSource={c.eslabones}
        style={{ marginBottom: 16 }}
        columns={[
          { title: msg('cadenaEslabon'), dataIndex: 'nivel', align: 'right' },
          {
            title: msg('columnaEjercicio'),
            render: (_, e) => {
              // A drill's fallback (issue 25.2) has no dashboard of its own: its drill's.
              const destino = e.respaldo_de ?? e.id_ejercicio;
              if (destino !== id) return <Link to={`/dashboard/${destino}`}>{e.ejercicio}</Link>;
              if (e.respaldo_de !== null) return e.ejercicio;
              return (
                <>
                  {e.ejercicio} <Tag>{msg('cadenaEsteEjercicio')}</Tag>
                </>
              );
            },
          },
          { title: msg('columnaTipo'), dataIndex: 'tipo_ejercicio' },
          { title: msg('columnaDispositivo'), dataIndex: 'alias' },
          {
            title: msg('informeIniciado'),
            render: (_, e) => fechaHoraTexto(e.iniciado),
          },
          {
            title: msg('informeTerminado'),
            render: (_, e) => fechaHoraTexto(e.terminado),
          },
          {
            title: msg('alcanzados'),
            align: 'right',
            render: (_, e) =>
              msg('cadenaAlcanzadosDe', {
                alcanzados: e.alcanzados,
                destinatarios: e.destinatarios,
              }),
          },
        ]}
      />
      <Typography.Title level={5}>{msg('cadenaCurva')}</Typography.Title>
      <div className="cadena-curva" data-alcanzados={c.curva.at(-1)?.alcanzados ?? 0}>
        {c.curva.length === 0 ? (
          <Empty description={msg('sinEnvios')} />
        ) : (
          <CurvaAlcance curva={c.curva} hitos={c.hitos} />
        )}
      </div>
    </Card>
  );
}
