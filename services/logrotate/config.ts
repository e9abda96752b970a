// Log rotation configuration, read once at start through one zod schema; a bad value stops start-up.
import path from 'node:path';
import { z } from 'zod';

import { readEnv } from '../shared/env.ts';

/** A log file is rotated once it is larger than this (MiB). */
export const DEFAULT_LOG_MAX_MB = 20;
/** Rotated files kept per log (file.log.1 … file.log.N); older ones are deleted. */
export const DEFAULT_LOG_KEEP = 5;

export const logRotateEnvSchema = z.object({
  LOG_MAX_MB: z.coerce.number().int().min(1).max(1_048_576).default(DEFAULT_LOG_MAX_MB),
  LOG_KEEP: z.coerce.number().int().min(1).max(100).default(DEFAULT_LOG_KEEP),
  /** The pm2 home whose logs/ this process rotates (the ecosystem passes it: $DATA_DIR/pm2 under npm start). */
  PM2_HOME: z.string().min(1),
});

export interface LogRotateConfig {
  logDir: string;
  maxBytes: number;
  keep: number;
}

export function readLogRotateConfig(source: NodeJS.ProcessEnv = process.env): LogRotateConfig {
  const env = readEnv(logRotateEnvSchema, source);
  return {
    logDir: path.join(env.PM2_HOME, 'logs'),
    maxBytes: env.LOG_MAX_MB * 1024 * 1024,
    keep: env.LOG_KEEP,
  };
}
