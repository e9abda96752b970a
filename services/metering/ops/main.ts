// The operator CLI (`npm run ops -- <command>`): talks to the running metering service over NATS: the server
// NATS_URL or NATS_PORT names, else the one the stack running for DATA_DIR was started with (asked of its pm2).
import path from 'node:path';
import { parseArgs } from 'node:util';

import { connect } from 'nats';

import { MeteringUnavailableError } from '../../shared/domain-errors.ts';
import { DEFAULT_NATS_PORT, natsUrl, natsUrlList } from '../../shared/env.ts';
import { MeteringServiceError } from '../../shared/metering-protocol/client.ts';
import { printable } from '../../shared/printable.ts';
import { findStack, noStackMessage, stackProcesses } from '../../shared/running-stack.ts';
import { COMMANDS, UsageError } from './commands.ts';
import { readOpsConfig } from './config.ts';

/** Exit codes: 1 refused by the service (unknown email or prefix, ...), 2 bad usage, 3 service unreachable. */
const EXIT_REFUSED = 1;
const EXIT_USAGE = 2;
const EXIT_UNAVAILABLE = 3;
/** Every option of every command (each command reads its own). */
const OPTIONS = {
  json: { type: 'boolean' },
  'all-keys': { type: 'boolean' },
  keys: { type: 'string' },
  at: { type: 'string' },
  date: { type: 'string' },
} as const;

function parse(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    // parseArgs names the option: an unknown one, or one missing its value.
    throw new UsageError((err as Error).message);
  }
  const flags = new Map<string, string>();
  for (const [name, value] of Object.entries(parsed.values)) if (value !== undefined && value !== false) flags.set(name, String(value));
  const words = parsed.positionals;
  const two = words.slice(0, 2).join(' ');
  if (COMMANDS[two]) return { name: two, args: words.slice(2), flags };
  if (words[0] && COMMANDS[words[0]]) return { name: words[0], args: words.slice(1), flags };
  throw new UsageError(`unknown command "${words.join(' ')}"`);
}

function help(): string {
  const lines = Object.values(COMMANDS).map((c) => `  ${c.usage}`);
  return `usage: npm run ops -- <command> [--json]\n${lines.join('\n')}`;
}

/** The NATS server of the metering process that the stack of `dataDir` runs, from the env pm2 gave it. */
async function stackNatsUrl(dataDir: string): Promise<string[]> {
  const stack = await findStack(dataDir);
  if (!stack) throw new StackNotFound(noStackMessage(dataDir));
  const metering = (await stackProcesses(stack, process.env)).find((p) => p.name === 'metering');
  if (!metering) throw new StackNotFound(`the stack for DATA_DIR=${stack.dataDir} runs no metering process`);
  // pm2 keeps an app's variables both in pm2_env and in pm2_env.env.
  const { NATS_URL, NATS_PORT } = { ...metering.pm2_env, ...metering.pm2_env.env } as Record<string, unknown>;
  return natsUrl({ NATS_URL: typeof NATS_URL === 'string' ? natsUrlList.parse(NATS_URL) : undefined, NATS_PORT: Number(NATS_PORT ?? DEFAULT_NATS_PORT) });
}

class StackNotFound extends Error {
  override readonly name = 'StackNotFound';
}

async function main(argv: string[]): Promise<number> {
  let command;
  try {
    command = parse(argv);
  } catch (err) {
    process.stderr.write(`${printable((err as Error).message)}\n${help()}\n`);
    return EXIT_USAGE;
  }
  const config = readOpsConfig();
  let url: string[];
  try {
    url = config.natsUrl ?? (await stackNatsUrl(config.dataDir));
  } catch (err) {
    if (!(err instanceof StackNotFound)) throw err;
    process.stderr.write(`${err.message}\n`);
    return EXIT_UNAVAILABLE;
  }
  let nc;
  try {
    nc = await connect({ servers: url, ...config.natsAuth, name: `ops-${path.basename(process.argv[1] ?? 'cli')}` });
  } catch (err) {
    process.stderr.write(`cannot reach NATS at ${url.join(',')}: ${(err as Error).message}\n`);
    return EXIT_UNAVAILABLE;
  }
  try {
    const out = await COMMANDS[command.name].run(nc, command.args, command.flags);
    process.stdout.write(command.flags.has('json') ? `${JSON.stringify(out.json, null, 2)}\n` : `${out.text}\n`);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${printable(err.message)}\n`);
      return EXIT_USAGE;
    }
    if (err instanceof MeteringServiceError) {
      process.stderr.write(`error: ${printable(err.message)}\n`);
      return EXIT_REFUSED;
    }
    if (err instanceof MeteringUnavailableError) {
      process.stderr.write(`the metering service does not answer on ${url.join(',')}\n`);
      return EXIT_UNAVAILABLE;
    }
    throw err;
  } finally {
    await nc.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
