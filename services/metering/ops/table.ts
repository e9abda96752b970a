// Plain-text tables for the operator CLI: every value passes through printable(), so that text from clients
// (names, organisations, key names) can neither drive the terminal nor break a row or a column.
import { printable } from '../../shared/printable.ts';

export function table(rows: readonly Record<string, unknown>[], columns: readonly string[]): string {
  if (rows.length === 0) return '(none)';
  const cells = rows.map((r) => columns.map((c) => text(r[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd();
  return [line([...columns]), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/** One record as aligned `field  value` lines. */
export function record(value: Record<string, unknown>): string {
  const width = Math.max(...Object.keys(value).map((k) => k.length));
  return Object.entries(value)
    .map(([k, v]) => `${k.padEnd(width)}  ${text(v)}`)
    .join('\n');
}

function text(v: unknown): string {
  if (v === null || v === undefined) return '-';
  return printable(typeof v === 'string' ? v : JSON.stringify(v));
}
