import { Grid } from 'antd';

/** Whether the screen is a phone's: narrower than Ant Design's `md` breakpoint (768 px). There
 * the side menu becomes a drawer, the exercises list one card per exercise and the dashboard's
 * panels one column with the semáforo first (issue 45.4). Ant Design's observer answers in a
 * layout effect, before the first paint. */
export function useEsMovil(): boolean {
  return Grid.useBreakpoint().md === false;
}
