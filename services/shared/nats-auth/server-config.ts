// The nats-server configuration for the bus's roles (credentials.ts): what each user may publish and subscribe
// to. Workers may only ask metering what they use and hear their own replies, the ops CLI only the ops subjects,
// and only metering serves; a connection without a user is refused.
import fs from 'node:fs';
import path from 'node:path';

import { PRIVATE_FILE_MODE } from '../private-files.ts';
import { KEYS_CHANGED_SUBJECT, METERING_PREFIX, SUBJECTS } from '../metering-protocol/subjects.ts';
import { METRICS_SUBJECT } from '../metrics/protocol.ts';
import { SNAPSHOT_STORE_NAME } from '../snapshot-store/names.ts';
import { ensureNatsCredentials, INBOX_PREFIX, serverConfigFile, type NatsCredentials, type NatsRole } from './credentials.ts';

interface Permissions {
  publish: readonly string[];
  subscribe: readonly string[];
  /** May answer the requests it receives (publish once to their reply subjects), whatever `publish` says. */
  allowResponses: boolean;
}

export const ROLE_PERMISSIONS: Record<NatsRole, Permissions> = {
  // The service side: it serves the protocol and the NATS services framework's $SRV subjects, asks workers
  // for units (reclaim) and metrics, tells them of key changes, and answers into the others' inboxes.
  metering: {
    publish: ['>'],
    subscribe: [`${METERING_PREFIX}.>`, '$SRV.>', `${INBOX_PREFIX.metering}.>`],
    allowResponses: true,
  },
  // The metering subjects the workers request (ping for /healthz, registration, each shard's lease and
  // release), their replies, and what metering sends them: key changes, reclaims and metrics collection.
  api: {
    publish: [SUBJECTS.ping, SUBJECTS.register, SUBJECTS.lease, SUBJECTS.release],
    subscribe: [`${INBOX_PREFIX.api}.>`, KEYS_CHANGED_SUBJECT, `${METERING_PREFIX}.holders.*.reclaim`, METRICS_SUBJECT],
    allowResponses: true,
  },
  ops: {
    publish: [`${METERING_PREFIX}.ops.>`, SUBJECTS.ping],
    subscribe: [`${INBOX_PREFIX.ops}.>`],
    allowResponses: false,
  },
  // On a cluster only: `npm run publish:snapshot` and each host's snapshot agent, through JetStream's API (the
  // object store and the key-value bucket of services/shared/snapshot-store/, flow control and acks of their
  // consumers); replies come to its inbox.
  snapshots: {
    publish: ['$JS.API.>', `$O.${SNAPSHOT_STORE_NAME}.>`, `$KV.${SNAPSHOT_STORE_NAME}.>`, '$JS.FC.>', '$JS.ACK.>'],
    subscribe: [`${INBOX_PREFIX.snapshots}.>`],
    allowResponses: false,
  },
};

const list = (subjects: readonly string[]) => `[${subjects.map((s) => JSON.stringify(s)).join(', ')}]`;

/**
 * The `authorization` block of nats-server.conf (nats-server 2.9's users with permissions). Passwords are the
 * credentials' own: the file is written 0600 beside them.
 */
export function renderServerConfig(credentials: NatsCredentials): string {
  return ['# Generated from credentials.json at each start of the stack; edits are overwritten.', renderAuthorization(credentials), ''].join('\n');
}

/** The `authorization` block: one user per role the credentials hold (`snapshots` only once a cluster's are made). */
export function renderAuthorization(credentials: NatsCredentials): string {
  const roles = (Object.keys(ROLE_PERMISSIONS) as NatsRole[]).filter((role) => credentials.users[role] !== undefined);
  const users = roles.map((role) => {
    const { user, pass } = credentials.users[role] as { user: string; pass: string };
    const p = ROLE_PERMISSIONS[role];
    return [
      `    {`,
      `      user: ${JSON.stringify(user)}`,
      `      password: ${JSON.stringify(pass)}`,
      `      permissions: {`,
      `        publish: { allow: ${list(p.publish)} }`,
      `        subscribe: { allow: ${list(p.subscribe)} }`,
      ...(p.allowResponses ? [`        allow_responses: true`] : []),
      `      }`,
      `    }`,
    ].join('\n');
  });
  return ['authorization {', '  users = [', users.join('\n'), '  ]', '}'].join('\n');
}

/**
 * Makes DATA_DIR's credentials if there are none and writes nats-server.conf for them, by a rename of a fresh
 * 0600 file (it holds the passwords, and a reader never sees half of it); returns the config's path.
 */
export function writeServerConfig(dataDir: string): string {
  const file = path.resolve(serverConfigFile(dataDir));
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, renderServerConfig(ensureNatsCredentials(dataDir)), { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  fs.renameSync(tmp, file);
  return file;
}
