import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Drawer, Dropdown, Layout, Menu, Typography, type MenuProps } from 'antd';
import {
  DashboardOutlined,
  FileTextOutlined,
  GlobalOutlined,
  HomeOutlined,
  InboxOutlined,
  LaptopOutlined,
  LeftOutlined,
  LockOutlined,
  LogoutOutlined,
  MenuOutlined,
  PhoneOutlined,
  RightOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  TeamOutlined,
  UserOutlined,
} from '../iconos.tsx';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { ROL_ADMINISTRADOR, ROL_APROBADOR } from '@pregon/contract/constants';
import { usePendientes } from '../../ejercicio/api/aprobaciones.ts';
import { msg } from '@pregon/contract/messages';
import {
  cerrarSesion,
  leerVersionRoles,
  payloadSesion,
  refrescarRoles,
  suscribirRoles,
  usuarioTieneRol,
} from '../../lib/sesion.ts';
import { useEsMovil } from '../../lib/pantalla.ts';
import { CLAVE_EJERCICIOS, CLAVE_TABLEROS } from '../../lib/claves-consulta.ts';

const ITEMS_MENU = [
  { key: '/', icon: <HomeOutlined />, label: msg('menuInicio') },
  { key: '/telefonos', icon: <PhoneOutlined />, label: msg('menuTelefonos') },
  { key: '/equipos', icon: <LaptopOutlined />, label: msg('menuEquipos') },
  { key: '/respuestas', icon: <InboxOutlined />, label: msg('columnaRespuestas') },
  { key: '/plantillas', icon: <FileTextOutlined />, label: msg('menuPlantillas') },
];
/** Issue 47.2: the approvers' entry. */
const ITEM_APROBACIONES = {
  key: '/aprobaciones',
  icon: <SafetyCertificateOutlined />,
  label: msg('menuAprobaciones'),
};

function claveSeleccionada(ruta: string): string {
  const item = [...ITEMS_MENU, ITEM_APROBACIONES].find(
    (i) => i.key !== '/' && ruta.startsWith(i.key),
  );
  return item?.key ?? (ruta === '/' ? '/' : '');
}

/**
 * The 'default' layout (SPEC 2): collapsible side menu with the logo and Inicio, Teléfonos,
 * Equipos, Respuestas (the replies inbox, issue 46.3) and Plantillas (prepared messages, issue
 * 47.3); a header with the settings dropdown (Mi perfil, Usuarios for administrators, Países,
 * Tablero general, Cerrar sesión) and the drawer button opening the 'Menu' drawer. On a phone
 * (below 768 px, issue 45.4) there is no side menu: the same items are in that drawer, the header
 * keeps the name on one line (cut with an ellipsis) and 'Configuración' shows its icon only.
 */
export function DefaultLayout() {
  const [colapsado, setColapsado] = useState(false);
  const [cajon, setCajon] = useState(false);
  const navegar = useNavigate();
  const { pathname } = useLocation();
  const movil = useEsMovil();
  const sesion = payloadSesion();
  const nombre = sesion?.nombre ?? sesion?.usuario;
  // The account's current roles (issue 48.6): asked when the app opens and when the window
  // regains focus; when they change what the screens allow, the page is mounted again with them.
  const versionRoles = useSyncExternalStore(suscribirRoles, leerVersionRoles);
  useEffect(() => {
    void refrescarRoles();
    const alVolver = () => void refrescarRoles();
    window.addEventListener('focus', alVolver);
    return () => window.removeEventListener('focus', alVolver);
  }, []);

  // Issue 47.2: an approver sees the requests waiting for them at once (polled), in the header.
  const aprobador = usuarioTieneRol([ROL_APROBADOR]);
  const pendientes = usePendientes();
  const porDecidir = (pendientes.data ?? []).filter((p) => p.puede_aprobar).length;
  // When the requests change (one asked, decided or expired elsewhere), the list and the
  // dashboards on screen say so too: their rows' approval state is reloaded.
  const cliente = useQueryClient();
  const firma = pendientes.data?.map((p) => p.id_ejercicio).join(',');
  const firmaVista = useRef(firma);
  useEffect(() => {
    if (firma === undefined || firma === firmaVista.current) return;
    const antes = firmaVista.current;
    firmaVista.current = firma;
    if (antes === undefined) return;
    void cliente.invalidateQueries({ queryKey: CLAVE_EJERCICIOS });
    void cliente.invalidateQueries({ queryKey: CLAVE_TABLEROS });
  }, [firma, cliente]);

  const itemsConfiguracion: MenuProps['items'] = [
    ...(sesion?.sub !== undefined
      ? [{ key: `/users/${sesion.sub}`, icon: <UserOutlined />, label: msg('miPerfil') }]
      : []),
    ...(usuarioTieneRol([ROL_ADMINISTRADOR])
      ? [
          { key: '/users', icon: <TeamOutlined />, label: msg('menuUsuarios') },
          { key: '/integraciones', icon: <LockOutlined />, label: msg('menuIntegraciones') },
        ]
      : []),
    { key: '/countries', icon: <GlobalOutlined />, label: msg('menuPaises') },
    { key: '/index_dash', icon: <DashboardOutlined />, label: msg('menuTableroGeneral') },
    { type: 'divider' },
    { key: 'salir', icon: <LogoutOutlined />, label: msg('cerrarSesion'), danger: true },
  ];

  const alElegirConfiguracion: MenuProps['onClick'] = ({ key }) => {
    if (key === 'salir') cerrarSesion();
    else navegar(key);
  };

  const menu = (
    <Menu
      theme={movil ? 'light' : 'dark'}
      mode="inline"
      selectedKeys={[claveSeleccionada(pathname)]}
      items={aprobador ? [...ITEMS_MENU, ITEM_APROBACIONES] : ITEMS_MENU}
      onClick={({ key }) => {
        setCajon(false);
        navegar(key);
      }}
    />
  );

  return (
    <Layout className={movil ? 'default-layout movil' : 'default-layout'}>
      {!movil && (
        <Layout.Sider
          collapsible
          collapsed={colapsado}
          onCollapse={setColapsado}
          // Below 768 px (a phone) the menu folds to its icons, leaving the screen to the content.
          breakpoint="md"
          onBreakpoint={setColapsado}
          // Ant Design's trigger is a bare arrow (named 'left' to screen readers) that only a mouse
          // can use; this one says what it does and answers Enter and Space.
          trigger={
            <span
              role="button"
              tabIndex={0}
              aria-label={msg(colapsado ? 'expandirMenu' : 'contraerMenu')}
              aria-expanded={!colapsado}
              onKeyDown={(e) => {
                if (e.key !== 'Enter' && e.key !== ' ') return;
                e.preventDefault();
                setColapsado(!colapsado);
              }}
            >
              {colapsado ? <RightOutlined /> : <LeftOutlined />}
            </span>
          }
          width={220}
          theme="dark"
          className="menu-lateral"
        >
          <div className="logo" aria-label={msg('nombreApp')}>
            <img src="/logo.svg" alt="" width={32} height={32} />
            {!colapsado && <span>{msg('nombreApp')}</span>}
          </div>
          {menu}
        </Layout.Sider>
      )}
      <Layout>
        <Layout.Header className="cabecera">
          <Button
            type="text"
            icon={<MenuOutlined />}
            aria-label={msg('abrirMenu')}
            onClick={() => setCajon(true)}
          />
          <div className="cabecera-derecha">
            {aprobador && (
              <Badge count={porDecidir} size="small" className="insignia-aprobaciones">
                <Button
                  type="text"
                  icon={<SafetyCertificateOutlined />}
                  aria-label={msg('aprobacionesInsignia', { n: porDecidir })}
                  title={msg('aprobacionesInsignia', { n: porDecidir })}
                  onClick={() => navegar('/aprobaciones')}
                />
              </Badge>
            )}
            {nombre && (
              <Typography.Text className="cabecera-usuario" ellipsis title={nombre}>
                {nombre}
              </Typography.Text>
            )}
            <Dropdown
              menu={{ items: itemsConfiguracion, onClick: alElegirConfiguracion }}
              trigger={['click']}
              placement="bottomRight"
            >
              <Button icon={<SettingOutlined />} aria-label={msg('configuracion')}>
                {!movil && msg('configuracion')}
              </Button>
            </Dropdown>
          </div>
        </Layout.Header>
        <Layout.Content className="contenido">
          <Outlet key={versionRoles} />
        </Layout.Content>
      </Layout>
      <Drawer
        title={msg('menu')}
        open={cajon}
        onClose={() => setCajon(false)}
        placement="left"
        size={movil ? 280 : undefined}
        className="cajon-menu"
      >
        {movil ? (
          menu
        ) : (
          <Typography.Paragraph type="secondary">{msg('proximamente')}</Typography.Paragraph>
        )}
      </Drawer>
    </Layout>
  );
}
