// Metering service configuration, read once at start through one zod schema; a bad value stops start-up.
import path from 'node:path';

import { natsUrl, readEnv, sharedEnvSchema } from '../shared/env.ts';

const meteringEnvSchema = sharedEnvSchema;

export interface MeteringConfig {
  natsUrl: string;
  dataDir: string;
  /** DATA_DIR/metering.db */
  dbPath: string;
}

export function readMeteringConfig(source: NodeJS.ProcessEnv = process.env): MeteringConfig {
  const env = readEnv(meteringEnvSchema, source);
  return { natsUrl: natsUrl(env), dataDir: env.DATA_DIR, dbPath: path.join(env.DATA_DIR, 'metering.db') };
}
