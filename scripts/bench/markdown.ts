// Number formats and tables for the bench's reports.

export const n0 = (x: number): string => (Number.isFinite(x) ? Math.round(x).toLocaleString('en') : '-');
export const f1 = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : '-');
export const f2 = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '-');

export function table(head: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const line = (cells: readonly (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(head), `|${head.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}
