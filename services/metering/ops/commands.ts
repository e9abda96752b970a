// The operator commands: argument shapes, the request each sends, and how each reply reads as text (every
// value from the service shown through printable(): see table.ts).
import type { NatsConnection } from 'nats';

import { call } from '../../shared/metering-protocol/client.ts';
import { OPS } from '../../shared/metering-protocol/ops-protocol.ts';
import { PLANS, type Plan } from '../../shared/plans.ts';
import { shown } from '../../shared/printable.ts';
import { record, table } from './table.ts';

const DEVELOPER_COLUMNS = ['email', 'name', 'plan', 'status', 'keys', 'createdAt', 'id'];
/** Each key with who registered it: the email's owner or someone else who used their address (set-plan). */
const KEY_COLUMNS = [
  'prefix',
  'name',
  'plan',
  'status',
  'createdAt',
  'registrantName',
  'registrantOrganization',
  'registrantAddress',
  'revokedAt',
  'expiresAt',
];
const USAGE_COLUMNS = ['keyPrefix', 'keyName', 'endpoint', 'used', 'leased', 'limit'];
const USAGE_NOTE =
  'used: units counted against the limit (requests served, and units hosts and workers hold); ' +
  'leased: of these, units hosts and workers hold in blocks and may not have served yet';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface Command {
  usage: string;
  run(nc: NatsConnection, args: string[], flags: Map<string, string>): Promise<{ json: unknown; text: string }>;
}

function need(args: string[], n: number, usage: string): void {
  if (args.length !== n) throw new UsageError(`usage: ${usage}`);
}

export const COMMANDS: Record<string, Command> = {
  'developers list': {
    usage: 'developers list',
    async run(nc, args) {
      need(args, 0, this.usage);
      const reply = await call(nc, OPS.developersList, {});
      return { json: reply, text: table(reply.developers, DEVELOPER_COLUMNS) };
    },
  },
  'developers show': {
    usage: 'developers show <email>',
    async run(nc, args) {
      need(args, 1, this.usage);
      const reply = await call(nc, OPS.developersShow, { email: args[0] });
      return { json: reply, text: `${record(reply.developer)}\n\nKeys\n${table(reply.keys, KEY_COLUMNS)}` };
    },
  },
  'developers set-plan': {
    usage: `developers set-plan <email> <${PLANS.join('|')}> (--keys <prefix>[,<prefix>…] | --all-keys)`,
    async run(nc, args, flags) {
      need(args, 2, this.usage);
      if (!(PLANS as readonly string[]).includes(args[1])) throw new UsageError(`unknown plan ${args[1]}; use one of ${PLANS.join(', ')}`);
      const keys = flags.get('keys')?.split(',').map((k) => k.trim()).filter(Boolean);
      if (keys !== undefined && keys.length === 0) throw new UsageError('--keys needs at least one key prefix');
      const allKeys = flags.has('all-keys') || undefined;
      const reply = await call(nc, OPS.developersSetPlan, { email: args[0], plan: args[1] as Plan, keys, allKeys });
      const head = shown`${reply.developer.email} is now on the ${reply.developer.plan} plan; keys changed (${reply.changed.length}):`;
      const rest = reply.unchanged.length === 0 ? '' : `\n\nKeys not changed\n${table(reply.unchanged, KEY_COLUMNS)}`;
      return { json: reply, text: `${head}\n${table(reply.changed, KEY_COLUMNS)}${rest}` };
    },
  },
  'developers suspend': {
    usage: 'developers suspend <email>',
    async run(nc, args) {
      need(args, 1, this.usage);
      const reply = await call(nc, OPS.developersSuspend, { email: args[0] });
      return { json: reply, text: shown`${reply.developer.email} is suspended; its ${reply.developer.keys} key(s) are refused` };
    },
  },
  'developers reinstate': {
    usage: 'developers reinstate <email>',
    async run(nc, args) {
      need(args, 1, this.usage);
      const reply = await call(nc, OPS.developersReinstate, { email: args[0] });
      return { json: reply, text: shown`${reply.developer.email} is active again` };
    },
  },
  'keys list': {
    usage: 'keys list <email>',
    async run(nc, args) {
      need(args, 1, this.usage);
      const reply = await call(nc, OPS.keysList, { email: args[0] });
      return { json: reply, text: table(reply.keys, KEY_COLUMNS) };
    },
  },
  'keys revoke': {
    usage: 'keys revoke <keyPrefix>',
    async run(nc, args) {
      need(args, 1, this.usage);
      const reply = await call(nc, OPS.keysRevoke, { keyPrefix: args[0] });
      return { json: reply, text: shown`key ${reply.key.prefix} revoked at ${reply.key.revokedAt}` };
    },
  },
  'keys expire': {
    usage: 'keys expire <keyPrefix> [--at <ISO 8601>]',
    async run(nc, args, flags) {
      need(args, 1, this.usage);
      const at = flags.get('at');
      if (at !== undefined && Number.isNaN(Date.parse(at))) throw new UsageError(`--at ${at} is not an ISO 8601 time`);
      const iso = at === undefined ? undefined : new Date(Date.parse(at)).toISOString();
      const reply = await call(nc, OPS.keysExpire, { keyPrefix: args[0], at: iso });
      return { json: reply, text: shown`key ${reply.key.prefix} expires at ${reply.key.expiresAt} (${reply.key.status})` };
    },
  },
  usage: {
    usage: 'usage <email> [--date YYYY-MM-DD]',
    async run(nc, args, flags) {
      need(args, 1, this.usage);
      const date = flags.get('date');
      if (date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new UsageError('--date must be YYYY-MM-DD');
      const reply = await call(nc, OPS.usage, { email: args[0], date });
      const head = shown`${reply.email} (${reply.plan}) on ${reply.date} UTC`;
      return { json: reply, text: `${head}\n${table(reply.rows, USAGE_COLUMNS)}\n${USAGE_NOTE}` };
    },
  },
  backup: {
    usage: 'backup <file>',
    async run(nc, args) {
      need(args, 1, this.usage);
      // The service writes the file: resolve it here so that a relative path means the operator's directory.
      const { resolve } = await import('node:path');
      const reply = await call(nc, OPS.backup, { file: resolve(args[0]) }, { timeoutMs: 60_000 });
      return { json: reply, text: shown`backup written to ${reply.file} (${reply.bytes} bytes)` };
    },
  },
};
