// A bound on what random API keys cost: each key the worker does not know is looked up in the metering service,
// so an address whose keys turn out unknown more than UNKNOWN_KEYS_PER_ADDRESS times in a window has its other
// unknown keys refused here, without a lookup, until the window passes. Keys the worker already holds keep
// working for it; a key repeated is refused from the negative cache (key-cache.ts) anyway.
import { AddressWindow } from '../../shared/address-window.ts';

/**
 * Unknown keys one address may have looked up per window in one worker. A client with a real key sends none;
 * one that mistypes or rotates keys sends a few. Beyond, they are guesses, and each would cost the metering
 * service a request.
 */
export const UNKNOWN_KEYS_PER_ADDRESS = 20;
export const UNKNOWN_KEYS_WINDOW_MS = 60_000;
/** Addresses kept (20 numbers each): a stream of new ones evicts the quiet. */
export const UNKNOWN_KEYS_ADDRESSES = 20_000;

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
