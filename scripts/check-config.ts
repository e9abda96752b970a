// Validates the whole configuration before `npm start` launches anything: one message naming each bad variable.
import { z } from 'zod';

import { readApiConfig } from '../services/api/config.ts';
import { logRotateEnvSchema } from '../services/logrotate/config.ts';
import { readMeteringConfig } from '../services/metering/config.ts';
import { ConfigError, HOST_ROLES, readEnv } from '../services/shared/env.ts';
import { readSnapshotsConfig } from '../services/snapshots/config.ts';

const launcherEnvSchema = z.object({
  API_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  CORPORA_DIR: z.string().min(1).optional(),
  /** Which parts this host runs (ecosystem.config.cjs). */
  HOST_ROLE: z.enum(HOST_ROLES).optional(),
  /** This host's member of a NATS cluster (npm run nats:cluster-config); nats-server runs with it. */
  NATS_SERVER_CONF: z.string().min(1).optional(),
});

const problems: string[] = [];
const checks = [
  () => readEnv(launcherEnvSchema),
  () => readApiConfig(),
  () => readMeteringConfig(),
  () => readSnapshotsConfig(),
  // PM2_HOME is set by npm start itself.
  () => readEnv(logRotateEnvSchema.omit({ PM2_HOME: true })),
];
for (const check of checks) {
  try {
    check();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    problems.push(err.message);
  }
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
