// Environment shared by every process, read once through zod; each process extends it with its own fields.
import { z } from 'zod';

export const DEFAULT_NATS_PORT = 4222;
export const DEFAULT_DATA_DIR = './var';

export const sharedEnvSchema = z.object({
  NATS_PORT: z.coerce.number().int().min(1).max(65535).default(DEFAULT_NATS_PORT),
  /** When set, names another NATS server; otherwise nats://127.0.0.1:NATS_PORT. */
  NATS_URL: z.string().url().optional(),
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

export function natsUrl(env: { NATS_URL?: string; NATS_PORT: number }): string {
  return env.NATS_URL ?? `nats://127.0.0.1:${env.NATS_PORT}`;
}
