// Environment shared by every process, read once through zod; each process extends it with its own fields.
import { z } from 'zod';

export const DEFAULT_NATS_PORT = 4222;
export const DEFAULT_DATA_DIR = './var';

/** Which parts a host runs under pm2 (ecosystem.config.cjs): the API workers, metering, or both. */
export const HOST_ROLES = ['all', 'api', 'metering'] as const;

/**
 * NATS_URL: one server's URL, or a cluster's, comma-separated (`nats://10.0.0.1:4222,nats://10.0.0.2:4222`):
 * nats.js takes them as its seed list, connects to one and moves to another when it is lost.
 */
export const natsUrlList = z
  .string()
  .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.string().url({ message: 'must be a URL or a comma-separated list of URLs' })).min(1, { message: 'names no server' }));

export const sharedEnvSchema = z.object({
  NATS_PORT: z.coerce.number().int().min(1).max(65535).default(DEFAULT_NATS_PORT),
  /** When set, names other NATS servers (one, or a cluster's); otherwise nats://127.0.0.1:NATS_PORT. */
  NATS_URL: natsUrlList.optional(),
  DATA_DIR: z.string().min(1).default(DEFAULT_DATA_DIR),
});

/** Parses `source` with `schema`; on failure exits the process with a message naming each bad variable. */
export function readEnv<T extends z.ZodTypeAny>(schema: T, source: NodeJS.ProcessEnv = process.env): z.infer<T> {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** The servers a process connects to: NATS_URL's list, else the one nats-server of this machine. */
export function natsUrl(env: { NATS_URL?: string[]; NATS_PORT: number }): string[] {
  return env.NATS_URL ?? [`nats://127.0.0.1:${env.NATS_PORT}`];
}

/**
 * Connect options that keep NATS_URL's order: a process connects to the first server listed that answers, and
 * goes down the list when it is lost. A host of a cluster lists its own member first, so that its processes stay
 * on it while another host is lost (nats.js otherwise picks at random, and a process on a member that is gone
 * waits for its pings to fail before it moves). One server: no effect.
 */
export const NATS_SERVER_ORDER = { noRandomize: true } as const;
