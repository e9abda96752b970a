// NATS names of the metering protocol: one versioned prefix, a queue group, the service identity.

export const METERING_PREFIX = 'dict.metering.v1';
/** Instances of the metering service share requests through this queue group. */
export const METERING_QUEUE = 'metering';
export const METERING_SERVICE_NAME = 'dict-metering';
export const METERING_SERVICE_VERSION = '1.0.0';

/**
 * Keys are split into this many shards by their hash, for good: a metering process serves the lease and release
 * subjects of the shards it owns (shard mod METERING_PROCESSES = its index), so that the processes share the
 * admissions and a change of their number moves no key's data (it all stays in metering.db).
 */
export const SHARD_COUNT = 16;

/** The shard of a key, from the first 32 bits of its SHA-256 (hex). */
export function shardOf(keyHash: string): number {
  return Number.parseInt(keyHash.slice(0, 8), 16) % SHARD_COUNT;
}

export function leaseSubject(shard: number): string {
  return `${METERING_PREFIX}.shards.${shard}.lease`;
}

export function releaseSubject(shard: number): string {
  return `${METERING_PREFIX}.shards.${shard}.release`;
}

/**
 * Request-reply subjects served by the metering service (queue group `metering`). `lease` and `release` are
 * the wildcards over every shard's subject (for watching them); requests go to leaseSubject(shardOf(hash)).
 */
export const SUBJECTS = {
  ping: `${METERING_PREFIX}.ping`,
  register: `${METERING_PREFIX}.register`,
  lease: `${METERING_PREFIX}.shards.*.lease`,
  release: `${METERING_PREFIX}.shards.*.release`,
  opsDevelopersList: `${METERING_PREFIX}.ops.developers-list`,
  opsDevelopersShow: `${METERING_PREFIX}.ops.developers-show`,
  opsDevelopersSetPlan: `${METERING_PREFIX}.ops.developers-set-plan`,
  opsDevelopersSuspend: `${METERING_PREFIX}.ops.developers-suspend`,
  opsDevelopersReinstate: `${METERING_PREFIX}.ops.developers-reinstate`,
  opsKeysList: `${METERING_PREFIX}.ops.keys-list`,
  opsKeysRevoke: `${METERING_PREFIX}.ops.keys-revoke`,
  opsKeysExpire: `${METERING_PREFIX}.ops.keys-expire`,
  opsUsage: `${METERING_PREFIX}.ops.usage`,
  opsBackup: `${METERING_PREFIX}.ops.backup`,
} as const;

/** Broadcast (no queue group: every worker hears it) after a key's validity, plan or limit changed. */
export const KEYS_CHANGED_SUBJECT = `${METERING_PREFIX}.events.keys-changed`;

/** Where the service asks one lease holder (a worker connection) to hand back its unused units. */
export function reclaimSubject(holder: string): string {
  return `${METERING_PREFIX}.holders.${holder}.reclaim`;
}
