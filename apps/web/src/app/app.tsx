import { useMemo, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider, type ThemeConfig } from 'antd';
import esES from 'antd/locale/es_ES';
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { usePrefiereMenosMovimiento } from '../lib/movimiento.ts';
import { clienteConsultas } from './consultas.ts';
import { router } from './router.tsx';
import {
  CalendarOutlined,
  CheckCircleFilled,
  ClockCircleOutlined,
  CloseCircleFilled,
  CloseOutlined,
  DownOutlined,
  EllipsisOutlined,
  ExclamationCircleFilled,
  InfoCircleFilled,
  LoadingOutlined,
} from '../components/iconos.tsx';

dayjs.locale('es');

/** The theme: the product's tokens, and Ant Design's zero-runtime mode. Its components' styles
 * come from the prebuilt antd/dist/antd.css (imported in main.tsx) instead of being generated
 * by CSS-in-JS at each first render (style objects, stylis, hashing, one <style> per component):
 * at CPU ×4 that was the largest part of the first screen's work (bench/primera-pantalla.ts).
 * The tokens still apply: those styles read them as CSS variables, which antd sets from here. */
const TEMA = {
  zeroRuntime: true,
  token: { colorPrimary: '#1d4ed8', borderRadius: 6, fontSize: 14 },
} satisfies ThemeConfig;

/** Ant Design's configuration: Spanish locale, the theme, and the icons of its controls. Whoever
 * asked their system or browser for less motion gets none: dialogs, menus, lists and toasts appear
 * at once instead of zooming or sliding in (antd's `motion` token turns its rc-motion animations
 * off). */
function ConfiguracionAntd({ children }: { children: ReactNode }) {
  const quieto = usePrefiereMenosMovimiento();
  const tema = useMemo<ThemeConfig>(
    () => ({ ...TEMA, token: { ...TEMA.token, motion: !quieto } }),
    [quieto],
  );
  return (
    <ConfigProvider
      locale={esES}
      theme={tema}
      // Ant Design's own icons in its controls, replaced by the same ones hidden from screen
      // readers (components/iconos.tsx): their names are English ('down', 'close-circle').
      select={{
        suffixIcon: <DownOutlined />,
        clearIcon: <CloseCircleFilled />,
        removeIcon: <CloseOutlined />,
        loadingIcon: <LoadingOutlined spin />,
      }}
      alert={{
        successIcon: <CheckCircleFilled />,
        infoIcon: <InfoCircleFilled />,
        warningIcon: <ExclamationCircleFilled />,
        errorIcon: <CloseCircleFilled />,
      }}
      modal={{ closeIcon: <CloseOutlined /> }}
      tabs={{ more: { icon: <EllipsisOutlined /> } }}
      datePicker={{ suffixIcon: <CalendarOutlined />, clearIcon: <CloseCircleFilled /> }}
      timePicker={{ suffixIcon: <ClockCircleOutlined />, clearIcon: <CloseCircleFilled /> }}
    >
      {children}
    </ConfigProvider>
  );
}

// The toasts (lib/notificar.ts, antd's static `message`) render outside the app's tree: the same
// configuration reaches them here.
ConfigProvider.config({ holderRender: (hijos) => <ConfiguracionAntd>{hijos}</ConfiguracionAntd> });

/** Providers: Ant Design's configuration, TanStack Query, and the router. */
export function App() {
  return (
    <ConfiguracionAntd>
      <AntApp>
        <QueryClientProvider client={clienteConsultas}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>
    </ConfiguracionAntd>
  );
}
