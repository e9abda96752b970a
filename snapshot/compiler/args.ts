// Command-line arguments of the build: --corpora DIR, --out FILE, --if-changed, --date YYYY-MM-DD.
import { parseArgs } from 'node:util';

export interface BuildArgs {
  corpora?: string;
  out?: string;
  ifChanged: boolean;
  date?: string;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE = 'usage: tsx snapshot/compiler/main.ts [--corpora DIR] [--out FILE] [--if-changed] [--date YYYY-MM-DD]';

export function parseBuildArgs(argv: readonly string[]): BuildArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        corpora: { type: 'string' },
        out: { type: 'string' },
        'if-changed': { type: 'boolean', default: false },
        date: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (cause) {
    throw new UsageError(`${(cause as Error).message}\n${USAGE}`);
  }
  if (values.date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(values.date)) throw new UsageError(`--date must be YYYY-MM-DD\n${USAGE}`);
  return { corpora: values.corpora, out: values.out, ifChanged: values['if-changed'] ?? false, date: values.date };
}
