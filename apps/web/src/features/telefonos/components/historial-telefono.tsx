import { useState } from 'react';
import { Alert, Modal, Table } from 'antd';
import type { TelefonoDetalle } from '@pregon/contract/api/telefonos';
import { msg } from '@pregon/contract/messages';
import { mensajeError } from '../../../lib/api-client.ts';
import { TAMANO_HISTORIAL, useHistorial } from '../api/get-historial.ts';

/** 'Historial' of a phone (issue 25.4): what it received and answered in every exercise, newest
 * first, paged on the server. */
export function HistorialTelefono(p: { telefono: TelefonoDetalle; alCerrar: () => void }) {
  const [pagina, setPagina] = useState(1);
  const h = useHistorial(p.telefono.id_telefono, pagina);
  return (
    <Modal
      open
      width={900}
      title={msg('historialDe', { telefono: p.telefono.telefono, nombre: p.telefono.nombre ?? '' })}
      footer={null}
      onCancel={p.alCerrar}
    >
      {h.isError && <Alert type="error" showIcon message={mensajeError(h.error)} />}
      <Table
        size="small"
        rowKey={(f) => `${f.id_ejercicio}-${f.fecha_envio ?? ''}-${f.hora_envio ?? ''}`}
        className="tabla-historial"
        loading={h.isFetching}
        dataSource={h.data?.data ?? []}
        locale={{ emptyText: msg('historialVacio') }}
        pagination={{
          current: pagina,
          pageSize: TAMANO_HISTORIAL,
          total: h.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => msg('total', { total }),
          onChange: setPagina,
        }}
        columns={[
          {
            title: msg('columnaFecha'),
            key: 'fecha',
            width: 160,
            render: (_, f) => (f.fecha_envio ? `${f.fecha_envio} ${f.hora_envio ?? ''}` : '—'),
          },
          { title: msg('columnaEjercicio'), dataIndex: 'ejercicio', ellipsis: true },
          { title: msg('columnaTipo'), dataIndex: 'tipo_ejercicio', width: 130 },
          { title: msg('columnaResultado'), dataIndex: 'resultado', width: 190 },
          { title: msg('columnaRespuestas'), dataIndex: 'respuestas', ellipsis: true },
        ]}
      />
    </Modal>
  );
}
