// NATS names of the metering protocol: one versioned prefix, a queue group, the service identity.

export const METERING_PREFIX = 'dict.metering.v1';
/** Instances of the metering service share requests through this queue group. */
export const METERING_QUEUE = 'metering';
export const METERING_SERVICE_NAME = 'dict-metering';
export const METERING_SERVICE_VERSION = '1.0.0';

/** Request-reply subjects served by the metering service (queue group `metering`). */
export const SUBJECTS = {
  ping: `${METERING_PREFIX}.ping`,
  register: `${METERING_PREFIX}.register`,
  lease: `${METERING_PREFIX}.lease`,
  release: `${METERING_PREFIX}.release`,
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
