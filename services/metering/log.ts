// JSON-lines logger of the metering process. Callers never pass request payloads (they may hold a key); what they
// pass is encoded by jsonLine, so that no text in a line drives the terminal showing it.
import { jsonLine } from '../shared/printable.ts';

export interface Log {
  info(fields: Record<string, unknown>): void;
  error(fields: Record<string, unknown>): void;
}

export function createLog(component: string, write: (line: string) => void = (l) => process.stdout.write(l)): Log {
  const emit = (level: string, fields: Record<string, unknown>) =>
    write(`${jsonLine({ time: new Date().toISOString(), level, component, ...fields })}\n`);
  return { info: (f) => emit('info', f), error: (f) => emit('error', f) };
}

export const silentLog: Log = { info: () => {}, error: () => {} };
