// API worker configuration, read once at start through one zod schema; a bad value stops start-up.
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

import { natsUrl, readEnv, sharedEnvSchema } from '../shared/env.ts';
import { operatorContactEnv } from './operator-contact.ts';

import type { OperatorContact } from './operator-contact.ts';

export const DEFAULT_PORT = 8080;
export const DEFAULT_HOST = '0.0.0.0';
/** POST bodies above this are refused as invalid_parameter (spec: body over 16 KiB). */
export const MAX_BODY_BYTES = 16 * 1024;

const apiEnvSchema = sharedEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(DEFAULT_PORT),
  HOST: z.string().min(1).default(DEFAULT_HOST),
  /** Overrides DATA_DIR/snapshots/current.sqlite. */
  SNAPSHOT_PATH: z.string().min(1).optional(),
  /** Comma-separated proxy addresses whose X-Forwarded-For is honoured; empty = none. */
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(z.string().ip({ message: 'must be a comma-separated list of IP addresses' }))),
  /** Worker name for logs and metering leases (pm2 sets NODE_APP_INSTANCE). */
  NODE_APP_INSTANCE: z.string().optional(),
  /** How people reach the operator for the team and institution plans: an email address or an https URL. */
  OPERATOR_CONTACT: operatorContactEnv,
});

export interface ApiConfig {
  port: number;
  host: string;
  natsUrl: string;
  dataDir: string;
  snapshotPath: string;
  trustProxy: readonly string[];
  workerName: string;
  /** Shown on /developers, /about and in quota_exceeded; undefined when OPERATOR_CONTACT is unset. */
  operatorContact?: OperatorContact;
}

export function readApiConfig(source: NodeJS.ProcessEnv = process.env): ApiConfig {
  const env = readEnv(apiEnvSchema, source);
  return {
    port: env.PORT,
    host: env.HOST,
    natsUrl: natsUrl(env),
    dataDir: env.DATA_DIR,
    snapshotPath: env.SNAPSHOT_PATH ?? path.join(env.DATA_DIR, 'snapshots', 'current.sqlite'),
    trustProxy: env.TRUST_PROXY,
    workerName: `api-${env.NODE_APP_INSTANCE ?? process.pid}@${os.hostname()}`,
    operatorContact: env.OPERATOR_CONTACT,
  };
}
