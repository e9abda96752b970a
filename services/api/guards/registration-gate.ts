// The worker's front of the key-creation throttle (spec: 5 per address per 15 minutes, Retry-After 900): an
// address over the limit is refused here, from a bounded window of its last attempts, before its request costs
// a body read, a round trip or a transaction in the metering service, which keeps the authority over what it
// accepts (its own window, and the keys issued per address in metering.db). And a bound on the registrations a
// worker has in flight, so that a flood from many addresses queues in no one's memory.
import { AddressWindow } from '../../shared/address-window.ts';
import { RateLimitedError, RegistrationsBusyError } from '../../shared/domain-errors.ts';
import { KEY_CREATION_LIMIT, KEY_CREATION_WINDOW_SECONDS } from '../../shared/plans.ts';

/** Addresses whose last attempts a worker keeps (5 numbers each); a stream of new ones evicts the quiet. */
export const REGISTRATION_ADDRESSES = 50_000;
/** Registrations a worker has at the metering service at once; the next ones wait for one to finish. */
export const REGISTRATIONS_IN_FLIGHT = 8;
/** Registrations that may wait for one of those; beyond, one is refused at once (RegistrationsBusyError). */
export const REGISTRATIONS_WAITING = 64;

export class RegistrationGate {
  readonly #window = new AddressWindow(KEY_CREATION_LIMIT, KEY_CREATION_WINDOW_SECONDS * 1000, REGISTRATION_ADDRESSES);
  #inFlight = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(private readonly now: () => number) {}

  /**
   * Throws RateLimitedError when `clientIp` is already over the limit, counting the attempt (spec: every
   * request counts): called before the request's body is read.
   */
  refuseEarly(clientIp: string): void {
    const now = this.now();
    if (!this.#window.full(clientIp, now)) return;
    this.#window.record(clientIp, now);
    throw new RateLimitedError('too many key requests from this address');
  }

  /** Counts the attempt; sends it (`send`) once the address is within the limit and a slot is free. */
  async register<T>(clientIp: string, send: () => Promise<T>): Promise<T> {
    if (!this.#window.attempt(clientIp, this.now())) throw new RateLimitedError('too many key requests from this address');
    await this.#slot();
    try {
      return await send();
    } finally {
      this.#release();
    }
  }

  #slot(): Promise<void> {
    if (this.#inFlight < REGISTRATIONS_IN_FLIGHT) {
      this.#inFlight++;
      return Promise.resolve();
    }
    if (this.#waiting.length >= REGISTRATIONS_WAITING) return Promise.reject(new RegistrationsBusyError('registrations in flight at their bound'));
    // The slot passes straight to the waiter: #inFlight stays as it is.
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#inFlight--;
  }
}
