import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Progress,
  Result,
  Row,
  Statistic,
  Tag,
  Typography,
} from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useNavigate, useParams } from 'react-router';
import { ETIQUETA_LUZ, LUCES_SEMAFORO, type LuzSemaforo } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { EstatusTag } from '../../../components/estatus-tag.tsx';
import { mensajeError } from '../../../lib/api-client.ts';
import { useEjercicio } from '../api/get-ejercicio.ts';
import { useSemaforo } from '../api/get-semaforo.ts';

const COLOR_LUZ: Record<LuzSemaforo, string> = {
  verde: '#16a34a',
  amarillo: '#d97706',
  rojo: '#dc2626',
};

/** /dashboard/{id}: the exercise's data and its semáforo counts (the full dashboard comes later). */
export function DashboardPage() {
  const navegar = useNavigate();
  const id = Number(useParams().id);
  const ejercicio = useEjercicio(id);
  const semaforo = useSemaforo(id);
  const fila = ejercicio.data;
  const s = semaforo.data?.semaforo;

  return (
    <div className="pagina">
      <div className="pagina-cabecera">
        <div>
          <Button
            type="link"
            icon={<ArrowLeftOutlined />}
            onClick={() => navegar('/')}
            style={{ paddingLeft: 0 }}
          >
            {msg('volver')}
          </Button>
          <Typography.Title level={2}>{fila?.ejercicio ?? msg('tituloTablero')}</Typography.Title>
        </div>
        {s && (
          <Tag color={COLOR_LUZ[s.luz]} className="luz-general">
            {msg('semaforo')}: {msg(ETIQUETA_LUZ[s.luz])}
          </Tag>
        )}
      </div>
      {(ejercicio.isError || semaforo.isError) && (
        <Alert
          type="error"
          showIcon
          message={msg('errorCarga')}
          description={mensajeError(ejercicio.error ?? semaforo.error)}
          style={{ marginBottom: 16 }}
        />
      )}
      {ejercicio.isSuccess && fila === null ? (
        <Result status="404" title={msg('noEncontrado', { entidad: msg('columnaEjercicio') })} />
      ) : (
        <>
          <Card loading={ejercicio.isPending} style={{ marginBottom: 16 }}>
            {fila && (
              <Descriptions column={{ xs: 1, md: 2, xl: 3 }} size="small">
                <Descriptions.Item label={msg('columnaNombre')}>{fila.ejercicio}</Descriptions.Item>
                <Descriptions.Item label={msg('columnaTipo')}>
                  {fila.tipo_ejercicio}
                </Descriptions.Item>
                <Descriptions.Item label={msg('columnaDispositivo')}>
                  {fila.alias}
                </Descriptions.Item>
                <Descriptions.Item label={msg('columnaAccion')}>{fila.accion}</Descriptions.Item>
                <Descriptions.Item label={msg('columnaFechaInicio')}>
                  {fila.fecha_ini}
                </Descriptions.Item>
                <Descriptions.Item label={msg('columnaHoraInicio')}>
                  {fila.hora_ini}
                </Descriptions.Item>
                <Descriptions.Item label={msg('columnaEstatus')}>
                  <EstatusTag completado={fila.completado} />
                </Descriptions.Item>
              </Descriptions>
            )}
          </Card>
          <Card title={msg('semaforo')} loading={semaforo.isPending}>
            {s && s.total === 0 ? (
              <Typography.Text type="secondary">{msg('semaforoSinDestinatarios')}</Typography.Text>
            ) : (
              s && (
                <Row gutter={[16, 16]}>
                  {LUCES_SEMAFORO.map((luz) => (
                    <Col xs={24} md={8} key={luz}>
                      <Card size="small" className={`luz luz-${luz}`}>
                        <Statistic
                          title={msg(ETIQUETA_LUZ[luz])}
                          value={s[luz]}
                          valueStyle={{ color: COLOR_LUZ[luz] }}
                        />
                        <Progress
                          percent={s.porcentajes[luz]}
                          strokeColor={COLOR_LUZ[luz]}
                          status="normal"
                          format={(p) => `${p ?? 0}%`}
                          size="small"
                        />
                      </Card>
                    </Col>
                  ))}
                  <Col span={24}>
                    <Typography.Text type="secondary">
                      {msg('total', { total: s.total })} · {msg('estatusCancelado')}: {s.cancelado}
                    </Typography.Text>
                  </Col>
                </Row>
              )
            )}
          </Card>
        </>
      )}
    </div>
  );
}
