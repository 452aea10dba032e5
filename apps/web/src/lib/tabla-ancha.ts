import type { CSSProperties } from 'react';

/** The style of a table that scrolls sideways when its screen is narrower than `px` (with the
 * class `tabla-ancha`, styles.css). Ant Design's `scroll={{ x }}` does the same but measures
 * every column's width in JS at the first render: a forced layout of the whole page, 150 ms of
 * the exercises list's first screen at CPU ×4 (issue 27.3). */
export const anchoMinimo = (px: number): CSSProperties =>
  ({ '--ancho-minimo': `${px}px` }) as CSSProperties;
