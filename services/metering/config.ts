// Metering service configuration, read once at start through one zod schema; a bad value stops start-up.
import path from 'node:path';
import { z } from 'zod';

import { ConfigError, natsUrl, readEnv, sharedEnvSchema } from '../shared/env.ts';
import { SHARD_COUNT } from '../shared/metering-protocol/subjects.ts';
import { natsAuthFor, type NatsAuth } from '../shared/nats-auth/credentials.ts';
import { DEFAULT_LEASE_TTL_MS } from './replication/shard-leases.ts';

/** Where GET /metrics is served for the whole stack (Prometheus's port for node exporters' kind). */
export const DEFAULT_METRICS_PORT = 9464;
/** Loopback only unless the operator says otherwise: the metrics describe the stack's load and routes. */
export const DEFAULT_METRICS_HOST = '127.0.0.1';
/** Days of daily usage kept in metering.db; older rows are deleted once a day. */
export const DEFAULT_USAGE_RETENTION_DAYS = 400;

/** Metering processes sharing the keys' shards (services/shared/metering-protocol/subjects.ts, SHARD_COUNT). */
export const DEFAULT_METERING_PROCESSES = 1;

/** Replicas of each metering stream and of the lease bucket: a cluster of 3 servers survives the loss of one. */
export const DEFAULT_METERING_REPLICAS = 3;

const meteringEnvSchema = sharedEnvSchema.extend({
  /**
   * `jetstream`: metering's state is replicated through the NATS cluster's JetStream (replication/start.ts),
   * and a process serves a shard only while it holds the shard's lease. `off` (one host): no JetStream needed.
   */
  METERING_REPLICATION: z.enum(['off', 'jetstream']).default('off'),
  METERING_REPLICAS: z.coerce.number().int().min(1).max(5).default(DEFAULT_METERING_REPLICAS),
  /** A shard lease not renewed for this long lapses, and a standby takes the shard. */
  METERING_LEASE_TTL_MS: z.coerce.number().int().min(500).max(60_000).default(DEFAULT_LEASE_TTL_MS),
  METERING_PROCESSES: z.coerce.number().int().min(1).max(SHARD_COUNT).default(DEFAULT_METERING_PROCESSES),
  /** This process's index among them (pm2 sets it for each instance). */
  NODE_APP_INSTANCE: z.coerce.number().int().min(0).default(0),
  /** 0: any free port (the bound port is logged). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(DEFAULT_METRICS_PORT),
  METRICS_HOST: z.string().min(1).default(DEFAULT_METRICS_HOST),
  USAGE_RETENTION_DAYS: z.coerce.number().int().min(1).max(100_000).default(DEFAULT_USAGE_RETENTION_DAYS),
});

export interface MeteringConfig {
  /** NATS_URL's servers (or this machine's); a test may name one. */
  natsUrl: string | string[];
  /** The metering role's NATS user (DATA_DIR/nats/credentials.json) and inbox prefix. */
  natsAuth: NatsAuth;
  dataDir: string;
  /** DATA_DIR/metering.db */
  dbPath: string;
  metricsPort: number;
  metricsHost: string;
  usageRetentionDays: number;
  /** How many metering processes share the shards, and which one this is. */
  processes: number;
  index: number;
  /** Undefined: not replicated (one host). */
  replication?: { replicas: number; leaseTtlMs: number };
}

export function readMeteringConfig(source: NodeJS.ProcessEnv = process.env): MeteringConfig {
  const env = readEnv(meteringEnvSchema, source);
  if (env.NODE_APP_INSTANCE >= env.METERING_PROCESSES) {
    throw new ConfigError(`Invalid configuration:\n  NODE_APP_INSTANCE: ${env.NODE_APP_INSTANCE} is not below METERING_PROCESSES (${env.METERING_PROCESSES})`);
  }
  return {
    natsUrl: natsUrl(env),
    natsAuth: natsAuthFor(env.DATA_DIR, 'metering'),
    dataDir: env.DATA_DIR,
    dbPath: path.join(env.DATA_DIR, 'metering.db'),
    metricsPort: env.METRICS_PORT,
    metricsHost: env.METRICS_HOST,
    usageRetentionDays: env.USAGE_RETENTION_DAYS,
    processes: env.METERING_PROCESSES,
    index: env.NODE_APP_INSTANCE,
    replication: env.METERING_REPLICATION === 'off' ? undefined : { replicas: env.METERING_REPLICAS, leaseTtlMs: env.METERING_LEASE_TTL_MS },
  };
}
