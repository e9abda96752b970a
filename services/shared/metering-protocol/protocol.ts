// Zod schemas of every metering request and reply (worker ⇄ service); both sides validate with them.
import { z } from 'zod';

import { METERED_ENDPOINTS, PLANS } from '../plans.ts';
import { KEY_HASH_PATTERN } from './keys.ts';
import { SUBJECTS } from './subjects.ts';

/** A lease holder id is one NATS subject token (the worker connection's random id). */
const holderSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const daySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const rangeSchema = z
  .tuple([z.number().int().min(1), z.number().int().min(1)])
  .refine(([from, to]) => to >= from, 'range must have from ≤ to');
export const rangesSchema = z.array(rangeSchema).max(100_000);

export const endpointSchema = z.enum(METERED_ENDPOINTS);
export const planSchema = z.enum(PLANS);

export const keyInfoSchema = z.object({
  id: z.string(),
  prefix: z.string(),
  plan: planSchema,
  limit: z.number().int().min(0),
  /** Operator-set expiry (ms since epoch); the worker checks it against its clock on every admission. */
  expiresAt: z.number().int().nullable(),
});
export type KeyInfo = z.infer<typeof keyInfoSchema>;

export const pingRequest = z.object({}).passthrough();
export const pingReply = z.object({
  ok: z.literal(true),
  version: z.string(),
  now: z.number(),
  /** Whether metering.db takes commits (absent from a service older than the report). */
  storage: z.object({ canCommit: z.boolean(), error: z.string().nullable(), since: z.string() }).optional(),
});

/** Largest block size a worker may hint at (the service's own cap is lower). */
export const MAX_LEASE_WANT = 1_000_000;

export const leaseRequest = z.object({
  holder: holderSchema,
  worker: z.string().max(200),
  keyHash: z.string().regex(KEY_HASH_PATTERN),
  endpoint: endpointSchema,
  day: daySchema,
  /** Reused when the worker retries after a lost reply, so that a committed grant is not granted twice. */
  requestId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  /**
   * A hint for the block size: the requests waiting in the worker, or what its rate for the key and endpoint
   * will take over the lease horizon, whichever is more (the service caps it).
   */
  want: z.number().int().min(1).max(MAX_LEASE_WANT),
  /**
   * The units of the slot the worker still holds unused: every other unit it was granted has served a request
   * (ops usage then counts them as used rather than leased). Absent: not known.
   */
  holding: rangesSchema.optional(),
});
export const leaseReply = z.discriminatedUnion('status', [
  z.object({ status: z.literal('invalid') }),
  z.object({
    status: z.literal('granted'),
    key: keyInfoSchema,
    day: daySchema,
    ranges: rangesSchema.min(1),
    /** Units counted for the slot with this grant: the base of the X-RateLimit-Used the worker reports. */
    used: z.number().int().min(0),
    /**
     * Of `used`, the units this holder was granted and has not returned (served ones included): `used - held`
     * is what the other holders account for, to which a host adds the units it served.
     */
    held: z.number().int().min(0),
  }),
  z.object({
    status: z.literal('exhausted'),
    key: keyInfoSchema,
    day: daySchema,
    used: z.number().int().min(0),
    limit: z.number().int().min(0),
  }),
]);
export type LeaseRequest = z.infer<typeof leaseRequest>;
export type LeaseReply = z.infer<typeof leaseReply>;

export const releaseRequest = z.object({
  holder: holderSchema,
  /** The key's hash: its shard holds the slot. */
  keyHash: z.string().regex(KEY_HASH_PATTERN),
  keyId: z.string(),
  endpoint: endpointSchema,
  day: daySchema,
  ranges: rangesSchema,
  /**
   * The holder gives back everything it has left of the slot: the service may then take every other unit it
   * granted this holder as used (ops usage shows them apart from units still leased).
   */
  drained: z.boolean().default(false),
});
export const releaseReply = z.object({ returned: z.number().int().min(0) });
export type ReleaseRequest = z.infer<typeof releaseRequest>;

/** Service → one worker: hand back the unused units of this key/endpoint/day. */
export const reclaimRequest = z.object({ keyId: z.string(), endpoint: endpointSchema, day: daySchema });
export const reclaimReply = z.object({ ranges: rangesSchema });

/** Registration as the metering service checks it again (the route already validated and normalised). */
export const registerRequest = z.object({
  input: z.object({
    name: z.string().trim().min(1).max(200),
    email: z.string().trim().min(1).max(200),
    organization: z.string().optional(),
    useCase: z.string().optional(),
    keyName: z.string().optional(),
  }),
  clientIp: z.string().min(1).max(100),
});
export const registerReply = z.object({
  developer: z.object({ id: z.string(), name: z.string(), email: z.string(), plan: planSchema }),
  apiKey: z.string(),
  keyPrefix: z.string(),
});
export type RegisterRequest = z.infer<typeof registerRequest>;

export const keysChangedEvent = z.object({
  keyHashes: z.array(z.string().regex(KEY_HASH_PATTERN)),
  reason: z.string(),
});
export type KeysChangedEvent = z.infer<typeof keysChangedEvent>;

/** Service errors travel as a NATS service error (code + description headers) with this body. */
export const ERROR_KINDS = [
  'bad_request',
  'not_found',
  'ambiguous',
  'rate_limited',
  'invalid_registration',
  'unavailable',
  'busy',
  'internal',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];
export const ERROR_KIND_STATUS: Readonly<Record<ErrorKind, number>> = {
  bad_request: 400,
  not_found: 404,
  ambiguous: 409,
  rate_limited: 429,
  invalid_registration: 400,
  /** metering.db takes no commits (a full disk): already logged once by the service, not per request. */
  unavailable: 503,
  /** Registrations waiting for their commit are at their bound: refused at once, tried again later. */
  busy: 503,
  internal: 500,
};
export const errorBody = z.object({
  error: z.object({ kind: z.enum(ERROR_KINDS), message: z.string(), parameter: z.string().optional() }),
});

export interface Rpc<Req extends z.ZodTypeAny, Rep extends z.ZodTypeAny> {
  subject: string;
  request: Req;
  reply: Rep;
}

const rpc = <Req extends z.ZodTypeAny, Rep extends z.ZodTypeAny>(subject: string, request: Req, reply: Rep) => ({
  subject,
  request,
  reply,
});

export const RPC = {
  ping: rpc(SUBJECTS.ping, pingRequest, pingReply),
  lease: rpc(SUBJECTS.lease, leaseRequest, leaseReply),
  release: rpc(SUBJECTS.release, releaseRequest, releaseReply),
  register: rpc(SUBJECTS.register, registerRequest, registerReply),
} satisfies Record<string, Rpc<z.ZodTypeAny, z.ZodTypeAny>>;
