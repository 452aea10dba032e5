import { Layout } from 'antd';
import { Outlet } from 'react-router';

/** The 'login' layout: a centred card over a plain background, no menus. */
export function LoginLayout() {
  return (
    <Layout className="login-layout">
      <main className="login-contenido">
        <Outlet />
      </main>
    </Layout>
  );
}
