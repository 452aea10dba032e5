import { useState } from 'react';
import { Alert, Checkbox, Modal, Space, Spin, Typography } from 'antd';
import { useNavigate } from 'react-router';
import type { EjercicioFila } from '@pregon/contract/api/ejercicios';
import { msg } from '@pregon/contract/messages';
import {
  ETIQUETA_GRUPO,
  marcadoDeInicio,
  totalElegido,
  type GrupoSeguimiento,
} from '@pregon/contract/rules/seguimiento';
import { useGruposSeguimiento } from '../api/obtener-grupos-seguimiento.ts';
import { mensajeError } from '../../lib/api-client.ts';

/** What the exercises list receives (router state) to open 'Crear ejercicio' as a follow-up. */
export interface PedidoSeguimiento {
  origen: number;
  resultados: GrupoSeguimiento[];
  destinatarios: number;
  /** The chosen sets as the dialog showed them ('Ocupado (3), No contestó (2)'). */
  detalle: string;
}

/**
 * 'Reenviar a no alcanzados' (issue 25.1): the source drill's outcome sets as checkboxes with their
 * counts now ('Ocupado (37)'); 'Continuar a Crear ejercicio' opens the create dialog of the list
 * prefilled, which copies those recipients on the server when saved.
 */
export function ReenviarNoAlcanzados(p: { fila: EjercicioFila; alCerrar: () => void }) {
  const navegar = useNavigate();
  const grupos = useGruposSeguimiento(p.fila.id_ejercicio, true);
  const [elegidos, setElegidos] = useState<GrupoSeguimiento[] | null>(null);
  const lista = grupos.data?.grupos ?? [];
  // By default every set that has someone in it, but 'WhatsApp entregado, no leído'.
  const marcados =
    elegidos ?? lista.filter((g) => g.total > 0 && marcadoDeInicio(g.grupo)).map((g) => g.grupo);
  const elegidas = lista.filter((g) => marcados.includes(g.grupo) && g.total > 0);
  // A person in two chosen sets (their call's and, with a fallback, 'SMS no entregado') is one.
  const total = totalElegido(
    grupos.data?.celdas ?? [],
    elegidas.map((g) => g.grupo),
  );
  // A poll's sets by answer carry their label ('Respondieron: 2 - Necesito ayuda', issue 46.2).
  const etiqueta = (g: { grupo: GrupoSeguimiento; total: number; etiqueta?: string | undefined }) =>
    msg('grupoConTotal', {
      grupo: g.etiqueta ?? msg(ETIQUETA_GRUPO[g.grupo]),
      N: g.total.toLocaleString('es-MX'),
    });

  const continuar = () => {
    const pedido: PedidoSeguimiento = {
      origen: p.fila.id_ejercicio,
      resultados: elegidas.map((g) => g.grupo),
      destinatarios: total,
      detalle: elegidas.map(etiqueta).join(', '),
    };
    p.alCerrar();
    navegar('/', { state: { seguimiento: pedido } });
  };

  return (
    <Modal
      open
      title={msg('accionReenviar')}
      okText={msg('reenviarContinuar')}
      cancelText={msg('cancelar')}
      okButtonProps={{ disabled: total === 0 }}
      onOk={continuar}
      onCancel={p.alCerrar}
      destroyOnHidden
    >
      <Typography.Paragraph>
        {msg('reenviarAyuda', { ejercicio: p.fila.ejercicio })}
      </Typography.Paragraph>
      {grupos.isPending ? (
        <Spin />
      ) : grupos.isError ? (
        <Alert type="error" message={mensajeError(grupos.error)} />
      ) : (
        <Checkbox.Group
          value={marcados}
          onChange={(v) => setElegidos(v as GrupoSeguimiento[])}
          className="grupos-seguimiento"
        >
          <Space direction="vertical">
            {lista.map((g) => (
              <Checkbox key={g.grupo} value={g.grupo} disabled={g.total === 0}>
                {etiqueta(g)}
              </Checkbox>
            ))}
          </Space>
        </Checkbox.Group>
      )}
      {!grupos.isPending && total === 0 && (
        <Alert type="warning" style={{ marginTop: 12 }} message={msg('reenviarElija')} />
      )}
    </Modal>
  );
}
