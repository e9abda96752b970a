// Maps metering.db records to the operator protocol's rows, and finds what an operator names.
import { canonicalEmail } from '../../../shared/email.ts';
import type { DeveloperRow, KeyRow } from '../../../shared/metering-protocol/ops-protocol.ts';
import { ServiceFault, type MeteringContext } from '../../context.ts';
import { keyStatus, type DeveloperRecord, type KeyRecord } from '../../store/accounts.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function developerRow(d: DeveloperRecord, keys: number): DeveloperRow {
  return {
    id: d.id,
    name: d.name,
    email: d.email,
    organization: d.organization,
    useCase: d.use_case,
    plan: d.plan,
    status: d.suspended_at === null ? 'active' : 'suspended',
    createdAt: new Date(d.created_at).toISOString(),
    keys,
  };
}

export function keyRow(k: KeyRecord, now: number): KeyRow {
  return {
    id: k.id,
    prefix: k.prefix,
    name: k.name,
    scope: k.scope,
    plan: k.plan,
    status: keyStatus(k, now),
    createdAt: new Date(k.created_at).toISOString(),
    registrantName: k.registrant_name,
    registrantOrganization: k.registrant_organization,
    registrantAddress: k.registrant_address,
    revokedAt: iso(k.revoked_at),
    expiresAt: iso(k.expires_at),
  };
}

export function findDeveloper(ctx: MeteringContext, email: string): DeveloperRecord {
  const developer = ctx.accounts.developerByEmail(canonicalEmail(email));
  if (!developer) throw new ServiceFault('not_found', `no developer with email ${email}`);
  return developer;
}

export function findKey(ctx: MeteringContext, prefix: string): KeyRecord {
  const keys = ctx.accounts.keysByPrefix(prefix);
  if (keys.length === 0) throw new ServiceFault('not_found', `no key with prefix ${prefix}`);
  // 8 hex characters after svc_live_ can collide; never act on a guess.
  if (keys.length > 1) throw new ServiceFault('ambiguous', `${keys.length} keys share the prefix ${prefix}`);
  return keys[0];
}

/** The developer row after a change, with its key hashes for the invalidation broadcast. */
export function afterChange(ctx: MeteringContext, email: string, reason: string) {
  const developer = findDeveloper(ctx, email);
  const keys = ctx.accounts.keysOf(developer.id);
  ctx.broadcastKeysChanged(
    keys.map((k) => k.key_hash),
    reason,
  );
  return { developer: developerRow(developer, keys.length) };
}
