// Registration over NATS: the service's refusals become the domain errors the route translates.
import type { NatsConnection } from 'nats';

import {
  InvalidRegistrationError,
  MeteringStorageError,
  MeteringUnavailableError,
  RateLimitedError,
  RegistrationsBusyError,
} from '../../shared/domain-errors.ts';
import { call, MeteringServiceError } from '../../shared/metering-protocol/client.ts';
import { RPC } from '../../shared/metering-protocol/protocol.ts';
import type { Registration, RegistrationInput } from './meter.ts';

/**
 * How long a worker waits for a registration's answer. Longer than a lease's deadline (DEFAULT_REQUEST_TIMEOUT_MS),
 * which is short so that metered requests fail fast: a registration is a write with an fsync in metering's
 * registration group, behind the commits of the shards' grants on the same thread, and a fsync can stall for
 * a second on a disk busy writing back what the host's ledger and the shards left dirty. Given up sooner, the
 * client got internal_error for a key that metering then issued: lost to it, and counted against its
 * address's five. A metering process that is gone still fails at once (no responders).
 */
export const REGISTRATION_TIMEOUT_MS = 5_000;

export async function register(nc: NatsConnection, input: RegistrationInput, clientIp: string): Promise<Registration> {
  try {
    return await call(nc, RPC.register, { input, clientIp }, { timeoutMs: REGISTRATION_TIMEOUT_MS });
  } catch (err) {
    if (!(err instanceof MeteringServiceError)) throw err;
    if (err.kind === 'rate_limited') throw new RateLimitedError(err.message);
    if (err.kind === 'invalid_registration') throw new InvalidRegistrationError(err.parameter ?? 'body', err.message);
    if (err.kind === 'busy') throw new RegistrationsBusyError(`registration refused: ${err.message}`);
    if (err.kind === 'unavailable') throw new MeteringStorageError(`registration failed: ${err.message}`, { cause: err });
    throw new MeteringUnavailableError(`registration failed: ${err.message}`, { cause: err });
  }
}
