// The worker's view of metering: what routes and the website need, behind one interface so that tests can
// pass the real NATS-backed implementation (lease.ts) or another.
import type { MeteredEndpoint, Plan } from '../../shared/plans.ts';

export interface Admission {
  keyPrefix: string;
  plan: Plan;
  /** X-RateLimit-Limit */
  limit: number;
  /**
   * X-RateLimit-Used: the count of the key's requests to the endpoint today, this one included; exact while
   * the key is not at volume (counted by the metering service), within a stated bound otherwise.
   */
  used: number;
  /** X-RateLimit-Remaining */
  remaining: number;
  /** The unit this request used: its number within the key's day for the endpoint, unique, at most the limit. */
  unit: number;
}

export interface RegistrationInput {
  name: string;
  email: string;
  organization?: string;
  useCase?: string;
  keyName?: string;
}

export interface Registration {
  developer: { id: string; name: string; email: string; plan: Plan };
  apiKey: string;
  keyPrefix: string;
}

export interface MeteringHealth {
  reachable: boolean;
  /** False while metering.db takes no commits (registrations and new leases then fail). */
  canCommit: boolean;
  /** SQLite's code and message of that failure. */
  storageError?: string;
}

export interface Meter {
  /**
   * Authenticates the key and takes one unit of its daily allowance for the endpoint.
   * Throws InvalidApiKeyError, QuotaExceededError (a refused request does not count) or
   * MeteringUnavailableError (fail closed: never serve free). `clientIp` (resolved through TRUST_PROXY): the
   * address whose unknown keys are bounded (guards/unknown-keys.ts); without it, none are.
   */
  admit(apiKey: string, endpoint: MeteredEndpoint, clientIp?: string): Promise<Admission>;
  /**
   * The same decision when the worker or its host holds allowance: an Admission at once (a unit of the worker's
   * own block: the response is sent inside the socket's callback), or a promise of one settled at the end of
   * this event-loop turn (a unit of the host's, committed with the turn's other takes). Undefined when metering
   * must be asked (then call admit() for the same request). Throws the same refusals.
   */
  admitNow?(apiKey: string, endpoint: MeteredEndpoint): Admission | Promise<Admission> | undefined;
  /** Registers (idempotent on email) and issues a key; throws RateLimitedError, InvalidRegistrationError,
   *  MeteringUnavailableError. `clientIp` is already resolved through TRUST_PROXY. */
  register(input: RegistrationInput, clientIp: string): Promise<Registration>;
  /**
   * Throws RateLimitedError when `clientIp` is already over the key-creation limit (counting the attempt), so
   * that the request is refused before its body is read.
   */
  refuseRegistration?(clientIp: string): void;
  /** Keys the worker holds (with their leases) now, for the metrics. */
  cachedKeys?(): number;
  /** Whether the metering service answers, and whether metering.db takes commits (for /healthz; may be up to a second old). */
  health(): Promise<MeteringHealth>;
  /** Returns unused leased units and drains the NATS connection. */
  close(): Promise<void>;
}
