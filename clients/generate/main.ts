// npm run generate:clients [-- --from <base URL>]: writes both clients' types from the OpenAPI description the
// API serves. Without --from it starts a stack of its own (test/support/stack.ts: nats-server, metering and one
// API worker on the test snapshot) and stops it after.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { startStack } from '../../test/support/stack.ts';
import { PYTHON_TYPES_FILE, pythonTypes } from './python-types.ts';
import { TYPESCRIPT_TYPES_FILE, typescriptTypes } from './typescript-types.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const { values: args } = parseArgs({ options: { from: { type: 'string' } } });

async function servedDescription(baseUrl: string): Promise<object> {
  const res = await fetch(`${baseUrl.replace(/\/+$/, '')}/api/v1/openapi.json`);
  if (!res.ok) throw new Error(`GET /api/v1/openapi.json answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as object;
}

async function description(): Promise<object> {
  if (args.from) return servedDescription(args.from);
  const stack = await startStack({ workers: 1 });
  try {
    return await servedDescription(stack.baseUrl);
  } finally {
    await stack.stop();
  }
}

/**
 * The description without its `example` values: those are drawn from the snapshot served (an entry, a date),
 * so types generated with them would change with every snapshot while no type does.
 */
function withoutExamples(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutExamples);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'example').map(([key, v]) => [key, withoutExamples(v)]));
}

const document = withoutExamples(await description()) as object;
for (const [file, text] of [
  [TYPESCRIPT_TYPES_FILE, await typescriptTypes(document)],
  [PYTHON_TYPES_FILE, pythonTypes(document)],
] as const) {
  fs.mkdirSync(path.dirname(path.join(ROOT, file)), { recursive: true });
  fs.writeFileSync(path.join(ROOT, file), text);
  process.stdout.write(`wrote ${file}\n`);
}
