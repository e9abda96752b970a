// Metering service configuration, read once at start through one zod schema; a bad value stops start-up.
import path from 'node:path';
import { z } from 'zod';

import { natsUrl, readEnv, sharedEnvSchema } from '../shared/env.ts';

/** Where GET /metrics is served for the whole stack (Prometheus's port for node exporters' kind). */
export const DEFAULT_METRICS_PORT = 9464;
/** Loopback only unless the operator says otherwise: the metrics describe the stack's load and routes. */
export const DEFAULT_METRICS_HOST = '127.0.0.1';
/** Days of daily usage kept in metering.db; older rows are deleted once a day. */
export const DEFAULT_USAGE_RETENTION_DAYS = 400;

const meteringEnvSchema = sharedEnvSchema.extend({
  /** 0: any free port (the bound port is logged). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(DEFAULT_METRICS_PORT),
  METRICS_HOST: z.string().min(1).default(DEFAULT_METRICS_HOST),
  USAGE_RETENTION_DAYS: z.coerce.number().int().min(1).max(100_000).default(DEFAULT_USAGE_RETENTION_DAYS),
});

export interface MeteringConfig {
  natsUrl: string;
  dataDir: string;
  /** DATA_DIR/metering.db */
  dbPath: string;
  metricsPort: number;
  metricsHost: string;
  usageRetentionDays: number;
}

export function readMeteringConfig(source: NodeJS.ProcessEnv = process.env): MeteringConfig {
  const env = readEnv(meteringEnvSchema, source);
  return {
    natsUrl: natsUrl(env),
    dataDir: env.DATA_DIR,
    dbPath: path.join(env.DATA_DIR, 'metering.db'),
    metricsPort: env.METRICS_PORT,
    metricsHost: env.METRICS_HOST,
    usageRetentionDays: env.USAGE_RETENTION_DAYS,
  };
}
