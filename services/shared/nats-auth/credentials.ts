// The bus's credentials: one NATS user per role (metering, api, ops), generated once into DATA_DIR/nats/
// (0700, the file 0600) and read once at start through zod. Each role connects with its own user and receives
// its replies under its own inbox prefix, which the server's permissions (server-config.ts) confine it to.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { z } from 'zod';

import { ConfigError } from '../env.ts';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../private-files.ts';

export const NATS_ROLES = ['metering', 'api', 'ops', 'snapshots'] as const;
export type NatsRole = (typeof NATS_ROLES)[number];
/** The roles made at the first start; `snapshots` (the cluster's snapshot store) is added for a cluster only. */
const FIRST_START_ROLES = ['metering', 'api', 'ops'] as const;

/** Where the credentials and the generated server config live, under DATA_DIR. */
export const NATS_AUTH_DIR = 'nats';
export const CREDENTIALS_FILE = 'credentials.json';
export const SERVER_CONFIG_FILE = 'nats-server.conf';
/** 32 random bytes per password: as strong as the API keys. */
const PASSWORD_BYTES = 32;
const newSecret = () => randomBytes(PASSWORD_BYTES).toString('base64url');

/** Each role's replies come to subjects under this prefix, and only that role may subscribe there. */
export const INBOX_PREFIX: Record<NatsRole, string> = {
  metering: '_INBOX_METERING',
  api: '_INBOX_API',
  ops: '_INBOX_OPS',
  snapshots: '_INBOX_SNAPSHOTS',
};

const secret = z.string().regex(/^[A-Za-z0-9_-]{16,}$/, 'must be 16 or more characters of A-Z a-z 0-9 _ -');
const userSchema = z.object({ user: z.string().regex(/^[a-z][a-z0-9-]*$/), pass: secret });
export const credentialsSchema = z.object({
  version: z.literal(1),
  users: z.object({ metering: userSchema, api: userSchema, ops: userSchema, snapshots: userSchema.optional() }),
  /** The user the servers of a NATS cluster authenticate each other's routes with (cluster-config.ts). */
  route: userSchema.optional(),
});
export type NatsCredentials = z.infer<typeof credentialsSchema>;

/** What a process passes to nats.js's connect() besides `servers`. */
export interface NatsAuth {
  user?: string;
  pass?: string;
  inboxPrefix: string;
}

/** A credentials file that cannot be used: start-up stops with its message, as for a bad variable. */
export class NatsCredentialsError extends ConfigError {}

export function credentialsFile(dataDir: string): string {
  return path.join(dataDir, NATS_AUTH_DIR, CREDENTIALS_FILE);
}

/** The nats-server config generated from the credentials (main.ts). */
export function serverConfigFile(dataDir: string): string {
  return path.join(dataDir, NATS_AUTH_DIR, SERVER_CONFIG_FILE);
}

/**
 * The credentials in DATA_DIR, made on the first call: written to a fresh temporary file (0600) and linked into
 * place, so that an existing file is never overwritten (link fails on it, and processes starting together all
 * read the one that won) and no reader sees half a file.
 */
export function ensureNatsCredentials(dataDir: string): NatsCredentials {
  const file = credentialsFile(dataDir);
  makePrivateDir(path.dirname(file));
  if (!fs.existsSync(file)) {
    const made: NatsCredentials = {
      version: 1,
      users: Object.fromEntries(FIRST_START_ROLES.map((role) => [role, { user: role, pass: newSecret() }])) as NatsCredentials['users'],
    };
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    fs.writeFileSync(tmp, `${JSON.stringify(made, null, 2)}\n`, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    try {
      fs.linkSync(tmp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.unlinkSync(tmp);
    }
  }
  return readNatsCredentials(dataDir) as NatsCredentials;
}

/** The credentials in DATA_DIR; undefined when there are none (a bus without authentication, as in tests). */
export function readNatsCredentials(dataDir: string): NatsCredentials | undefined {
  const file = credentialsFile(dataDir);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new NatsCredentialsError(`${file}: cannot be read: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new NatsCredentialsError(`${file}: not JSON; move it away and start again to generate new credentials`);
  }
  const parsed = credentialsSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new NatsCredentialsError(`${file}: ${issues}`);
  }
  return parsed.data;
}

/** The connect options of `role`: its user when DATA_DIR's credentials hold one, its inbox prefix always. */
export function natsAuthFor(dataDir: string, role: NatsRole): NatsAuth {
  const user = readNatsCredentials(dataDir)?.users[role];
  return user === undefined ? { inboxPrefix: INBOX_PREFIX[role] } : { ...user, inboxPrefix: INBOX_PREFIX[role] };
}

/**
 * The credentials with what a cluster adds: the `snapshots` user and the routes' user. Those already there are
 * kept as they are; missing ones are added by a rename of a fresh 0600 file. Run by the operator's
 * `npm run nats:cluster-config` before the cluster starts, never by a process of the stack, so that no two
 * writers race and a single machine's file stays as its first start made it.
 */
export function ensureClusterCredentials(dataDir: string): NatsCredentials {
  const credentials = ensureNatsCredentials(dataDir);
  if (credentials.users.snapshots !== undefined && credentials.route !== undefined) return credentials;
  const completed: NatsCredentials = {
    ...credentials,
    users: { ...credentials.users, snapshots: credentials.users.snapshots ?? { user: 'snapshots', pass: newSecret() } },
    route: credentials.route ?? { user: 'route', pass: newSecret() },
  };
  const file = credentialsFile(dataDir);
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(completed, null, 2)}\n`, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  fs.renameSync(tmp, file);
  return completed;
}
