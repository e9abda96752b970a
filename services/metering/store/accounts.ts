// Developers and their keys in metering.db: the queries registration, authentication and the operator use.
import { timingSafeEqual } from 'node:crypto';

import type { Plan } from '../../shared/plans.ts';
import type { Db } from '../db/open.ts';

export interface DeveloperRecord {
  id: string;
  name: string;
  email: string;
  organization: string | null;
  use_case: string | null;
  plan: Plan;
  suspended_at: number | null;
  created_at: number;
}

export interface KeyRecord {
  id: string;
  developer_id: string;
  key_hash: string;
  prefix: string;
  name: string;
  scope: string;
  created_at: number;
  revoked_at: number | null;
  expires_at: number | null;
  /** The plan this key is metered on (developers.plan is the plan the operator last set for them). */
  plan: Plan;
  /** What the key was registered with (null where unknown: keys older than the record). */
  registrant_name: string | null;
  registrant_organization: string | null;
  /** The client address, resolved through TRUST_PROXY. */
  registrant_address: string | null;
}

export type KeyWithDeveloper = KeyRecord & { suspended_at: number | null };

export function createAccounts(db: Db) {
  const q = {
    developerByEmail: db.prepare<[string], DeveloperRecord>('SELECT * FROM developers WHERE email = ?'),
    developers: db.prepare<[], DeveloperRecord & { keys: number }>(
      `SELECT d.*, (SELECT count(*) FROM api_keys k WHERE k.developer_id = d.id) AS keys
       FROM developers d ORDER BY d.created_at, d.email`,
    ),
    insertDeveloper: db.prepare(
      `INSERT INTO developers (id, name, email, organization, use_case, plan, created_at)
       VALUES (@id, @name, @email, @organization, @use_case, 'free', @created_at)`,
    ),
    insertKey: db.prepare(
      `INSERT INTO api_keys (id, developer_id, key_hash, prefix, name, scope, created_at, registrant_name,
         registrant_organization, registrant_address)
       VALUES (@id, @developer_id, @key_hash, @prefix, @name, 'read', @created_at, @registrant_name,
         @registrant_organization, @registrant_address)`,
    ),
    keyByHash: db.prepare<[string], KeyWithDeveloper>(
      `SELECT k.*, d.suspended_at FROM api_keys k JOIN developers d ON d.id = k.developer_id
       WHERE k.key_hash = ?`,
    ),
    keysOf: db.prepare<[string], KeyRecord>('SELECT * FROM api_keys WHERE developer_id = ? ORDER BY created_at, id'),
    keysByPrefix: db.prepare<[string], KeyRecord>('SELECT * FROM api_keys WHERE prefix = ?'),
    setPlan: db.prepare<[Plan, string]>('UPDATE developers SET plan = ? WHERE id = ?'),
    setKeyPlan: db.prepare<[Plan, string, string]>('UPDATE api_keys SET plan = ? WHERE id = ? AND developer_id = ?'),
    setSuspended: db.prepare<[number | null, string]>('UPDATE developers SET suspended_at = ? WHERE id = ?'),
    revoke: db.prepare<[number, string]>('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
    expire: db.prepare<[number, string]>('UPDATE api_keys SET expires_at = ? WHERE id = ?'),
    keyById: db.prepare<[string], KeyRecord>('SELECT * FROM api_keys WHERE id = ?'),
  };

  return {
    developerByEmail: (email: string) => q.developerByEmail.get(email),
    developers: () => q.developers.all(),
    insertDeveloper: (d: Omit<DeveloperRecord, 'plan' | 'suspended_at'>) => void q.insertDeveloper.run(d),
    insertKey: (k: Omit<KeyRecord, 'scope' | 'revoked_at' | 'expires_at' | 'plan'>) => void q.insertKey.run(k),
    keysOf: (developerId: string) => q.keysOf.all(developerId),
    keysByPrefix: (prefix: string) => q.keysByPrefix.all(prefix),
    keyById: (id: string) => q.keyById.get(id),
    /**
     * The operator's plan change: the developer's plan, and each of the keys named (the operator chooses them:
     * another person may have added a key under the developer's email). Later keys start free.
     */
    setPlan: db.transaction((developerId: string, plan: Plan, keyIds: readonly string[]) => {
      q.setPlan.run(plan, developerId);
      for (const id of keyIds) q.setKeyPlan.run(plan, id, developerId);
    }),
    setSuspended: (developerId: string, at: number | null) => void q.setSuspended.run(at, developerId),
    revoke: (keyId: string, at: number) => void q.revoke.run(at, keyId),
    expire: (keyId: string, at: number) => void q.expire.run(at, keyId),

    /** The key and its developer when the key is usable at `now`; undefined for unknown or unusable. */
    usableKey(keyHash: string, now: number): KeyWithDeveloper | undefined {
      const row = q.keyByHash.get(keyHash);
      // The lookup is by hash, so its timing says nothing about the key; compare again in constant time
      // so that no code path ever accepts on a non-constant-time comparison.
      if (!row || !timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(keyHash, 'hex'))) return undefined;
      return keyStatus(row, now) === 'usable' && row.suspended_at === null ? row : undefined;
    },
  };
}

export type Accounts = ReturnType<typeof createAccounts>;

export function keyStatus(key: KeyRecord, now: number): 'usable' | 'revoked' | 'expired' {
  if (key.revoked_at !== null) return 'revoked';
  if (key.expires_at !== null && key.expires_at <= now) return 'expired';
  return 'usable';
}
