// API worker configuration, read once at start through one zod schema; a bad value stops start-up.
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

import { natsUrl, readEnv, sharedEnvSchema } from '../shared/env.ts';
import { natsAuthFor, type NatsAuth } from '../shared/nats-auth/credentials.ts';
import { DEFAULT_RESPONSE_BUFFER_BYTES, DEFAULT_RESPONSE_STALL_MS } from './http/response-buffers.ts';
import { operatorContactEnv } from './operator-contact.ts';

import type { OperatorContact } from './operator-contact.ts';

export const DEFAULT_PORT = 8080;
export const DEFAULT_HOST = '0.0.0.0';
/** POST bodies above this are refused as invalid_parameter (spec: body over 16 KiB). */
export const MAX_BODY_BYTES = 16 * 1024;
/**
 * Which requests get a log line: `sample` (one in REQUEST_LOG_SAMPLE, and every server error) by default. At
 * 80k requests/s a worker logging all of them writes about 16 MB/s; one in 100 is a day's worth of lines that
 * rotation (LOG_MAX_MB, LOG_KEEP) holds a useful stretch of.
 */
export const REQUEST_LOG_MODES = ['all', 'errors', 'sample'] as const;
export const DEFAULT_REQUEST_LOG = 'sample';
/** In `sample` mode, one request in this many is logged. */
export const DEFAULT_REQUEST_LOG_SAMPLE = 100;

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
  /** all: every request; errors: responses with status 500 or above; sample: those and one in REQUEST_LOG_SAMPLE. */
  REQUEST_LOG: z.enum(REQUEST_LOG_MODES).default(DEFAULT_REQUEST_LOG),
  REQUEST_LOG_SAMPLE: z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_REQUEST_LOG_SAMPLE),
  /** Worker name for logs and metering leases (pm2 sets NODE_APP_INSTANCE). */
  NODE_APP_INSTANCE: z.string().optional(),
  /** How people reach the operator for the team and institution plans: an email address or an https URL. */
  OPERATOR_CONTACT: operatorContactEnv,
  /**
   * Comma-separated host names (no ports) this service answers for, e.g. `api.example.org,localhost`; a request
   * whose Host names another is refused (400 bad_request). Empty: any Host (http/host.ts).
   */
  ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/, { message: 'must be a comma-separated list of host names without ports' }))),
  /** A streamed response whose client takes none of its bytes for this long is dropped. */
  RESPONSE_STALL_MS: z.coerce.number().int().min(100).max(3_600_000).default(DEFAULT_RESPONSE_STALL_MS),
  /** The bytes a worker holds for clients that do not read, at most. */
  RESPONSE_BUFFER_BYTES: z.coerce.number().int().min(64 * 1024).max(1024 * 1024 * 1024).default(DEFAULT_RESPONSE_BUFFER_BYTES),
});

export interface RequestLogConfig {
  mode: (typeof REQUEST_LOG_MODES)[number];
  /** In `sample` mode, one request in this many is logged. */
  sampleEvery: number;
}

export interface ApiConfig {
  port: number;
  host: string;
  /** NATS_URL's servers (or this machine's); a test may name one. */
  natsUrl: string | string[];
  /** The api role's NATS user (DATA_DIR/nats/credentials.json) and inbox prefix; none on a bus without users. */
  natsAuth?: NatsAuth;
  dataDir: string;
  snapshotPath: string;
  trustProxy: readonly string[];
  workerName: string;
  requestLog: RequestLogConfig;
  /** Shown on /developers, /about and in quota_exceeded; undefined when OPERATOR_CONTACT is unset. */
  operatorContact?: OperatorContact;
  /** ALLOWED_HOSTS: the Host names served; absent or empty, any (http/host.ts). */
  allowedHosts?: ReadonlySet<string>;
  /** RESPONSE_STALL_MS and RESPONSE_BUFFER_BYTES (http/response-buffers.ts); the defaults when absent. */
  responseStallMs?: number;
  responseBufferBytes?: number;
}

export function readApiConfig(source: NodeJS.ProcessEnv = process.env): ApiConfig {
  const env = readEnv(apiEnvSchema, source);
  return {
    port: env.PORT,
    host: env.HOST,
    natsUrl: natsUrl(env),
    natsAuth: natsAuthFor(env.DATA_DIR, 'api'),
    dataDir: env.DATA_DIR,
    snapshotPath: env.SNAPSHOT_PATH ?? path.join(env.DATA_DIR, 'snapshots', 'current.sqlite'),
    trustProxy: env.TRUST_PROXY,
    workerName: `api-${env.NODE_APP_INSTANCE ?? process.pid}@${os.hostname()}`,
    requestLog: { mode: env.REQUEST_LOG, sampleEvery: env.REQUEST_LOG_SAMPLE },
    operatorContact: env.OPERATOR_CONTACT,
    allowedHosts: new Set(env.ALLOWED_HOSTS),
    responseStallMs: env.RESPONSE_STALL_MS,
    responseBufferBytes: env.RESPONSE_BUFFER_BYTES,
  };
}
