// The operator CLI's configuration, read once through one zod schema: the NATS server named outright
// (NATS_URL, or NATS_PORT on this machine), else the one of the stack running for DATA_DIR.
import { z } from 'zod';

import { DEFAULT_DATA_DIR, natsUrlList, readEnv } from '../../shared/env.ts';
import { natsAuthFor, type NatsAuth } from '../../shared/nats-auth/credentials.ts';

const opsEnvSchema = z.object({
  NATS_URL: natsUrlList.optional(),
  NATS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  DATA_DIR: z.string().min(1).default(DEFAULT_DATA_DIR),
});

export interface OpsConfig {
  /** Set when the environment names the server; otherwise found through the stack of dataDir. */
  natsUrl?: string[];
  dataDir: string;
  /** The ops role's NATS user (DATA_DIR/nats/credentials.json) and inbox prefix. */
  natsAuth: NatsAuth;
}

export function readOpsConfig(source: NodeJS.ProcessEnv = process.env): OpsConfig {
  const env = readEnv(opsEnvSchema, source);
  const natsUrl = env.NATS_URL ?? (env.NATS_PORT === undefined ? undefined : [`nats://127.0.0.1:${env.NATS_PORT}`]);
  return { natsUrl, dataDir: env.DATA_DIR, natsAuth: natsAuthFor(env.DATA_DIR, 'ops') };
}
