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

export async function register(nc: NatsConnection, input: RegistrationInput, clientIp: string): Promise<Registration> {
  try {
    return await call(nc, RPC.register, { input, clientIp });
  } catch (err) {
    if (!(err instanceof MeteringServiceError)) throw err;
    if (err.kind === 'rate_limited') throw new RateLimitedError(err.message);
    if (err.kind === 'invalid_registration') throw new InvalidRegistrationError(err.parameter ?? 'body', err.message);
    if (err.kind === 'busy') throw new RegistrationsBusyError(`registration refused: ${err.message}`);
    if (err.kind === 'unavailable') throw new MeteringStorageError(`registration failed: ${err.message}`, { cause: err });
    throw new MeteringUnavailableError(`registration failed: ${err.message}`, { cause: err });
  }
}
