// A bound on what random API keys cost: each key the worker does not know is looked up in the metering service,
// so an address whose keys turn out unknown more than UNKNOWN_KEYS_PER_ADDRESS times in a window has its other
// unknown keys refused here, without a lookup, until the window passes. Keys the worker already holds keep
// working for it; a key repeated is refused from the negative cache (key-cache.ts) anyway.
import { AddressWindow } from '../../shared/address-window.ts';

/**
 * Unknown keys one address may have looked up per window in one worker. A client with a real key sends none;
 * one that mistypes or rotates keys sends a few; a server behind which many clients share an address, or a test
 * suite, some dozens. Beyond, they are guesses: a flood of random keys costs the metering service at most this
 * many lookups a minute per worker instead of one per request. While an address is over it, only keys the
 * worker does not hold are refused (401 invalid_api_key, the answer to an unknown key).
 */
export const UNKNOWN_KEYS_PER_ADDRESS = 100;
export const UNKNOWN_KEYS_WINDOW_MS = 60_000;
/** Addresses kept (100 numbers each, 800 bytes): a stream of new ones evicts the quiet. */
export const UNKNOWN_KEYS_ADDRESSES = 10_000;

export class UnknownKeys {
  readonly #window = new AddressWindow(UNKNOWN_KEYS_PER_ADDRESS, UNKNOWN_KEYS_WINDOW_MS, UNKNOWN_KEYS_ADDRESSES);

  /** Whether `clientIp` has used its lookups of unknown keys for now. */
  exhausted(clientIp: string, now: number): boolean {
    return this.#window.full(clientIp, now);
  }

  /** The metering service said a key from `clientIp` is not valid. */
  refused(clientIp: string, now: number): void {
    this.#window.record(clientIp, now);
  }
}
