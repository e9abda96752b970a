// Where snapshots come from, read once through zod: `local` (one host: `npm run publish:snapshot` switches this
// host's files) or `jetstream` (a cluster: it puts them in the cluster's snapshot store, and each host's agent,
// services/snapshots/main.ts, installs them).
import { z } from 'zod';

import { natsUrl, readEnv, sharedEnvSchema } from '../shared/env.ts';
import { natsAuthFor, type NatsAuth } from '../shared/nats-auth/credentials.ts';
import { DEFAULT_SNAPSHOT_REPLICAS } from '../shared/snapshot-store/names.ts';

export const SNAPSHOT_STORES = ['local', 'jetstream'] as const;
/** How often the agent compares its snapshot with the store's beside watching it: a missed update is caught. */
export const DEFAULT_SNAPSHOT_RECHECK_MS = 60_000;

export const snapshotsEnvSchema = sharedEnvSchema.extend({
  SNAPSHOT_STORE: z.enum(SNAPSHOT_STORES).default('local'),
  /** Copies of the snapshot store's streams; at most the cluster's servers. */
  SNAPSHOT_REPLICAS: z.coerce.number().int().min(1).max(5).default(DEFAULT_SNAPSHOT_REPLICAS),
  SNAPSHOT_RECHECK_MS: z.coerce.number().int().min(1000).max(86_400_000).default(DEFAULT_SNAPSHOT_RECHECK_MS),
});

export interface SnapshotsConfig {
  store: (typeof SNAPSHOT_STORES)[number];
  replicas: number;
  recheckMs: number;
  natsUrl: string[];
  /** The `snapshots` role's user (made by `npm run nats:cluster-config`). */
  natsAuth: NatsAuth;
  dataDir: string;
}

export function readSnapshotsConfig(source: NodeJS.ProcessEnv = process.env): SnapshotsConfig {
  const env = readEnv(snapshotsEnvSchema, source);
  return {
    store: env.SNAPSHOT_STORE,
    replicas: env.SNAPSHOT_REPLICAS,
    recheckMs: env.SNAPSHOT_RECHECK_MS,
    natsUrl: natsUrl(env),
    natsAuth: natsAuthFor(env.DATA_DIR, 'snapshots'),
    dataDir: env.DATA_DIR,
  };
}
