// The website metered as a public client: each client address may have PAGES_PER_SECOND pages rendered a second,
// in bursts of up to PAGE_BURST (a token bucket per address, the addresses kept bounded by an Lru), in each
// worker; nginx applies the same figures in front (docs/nginx.conf). A page over it gets the 429 page.
import { Lru } from '../../shared/lru.ts';

/**
 * Pages a second one address may have, sustained. A person reads a page for seconds; a class of 30 behind one
 * school address, each opening a page every 6 s, is 5 a second. A scraper is held to that too: about a
 * twentieth of what one worker renders, where one client flooding `/` had taken all of it. (The data itself is
 * published whole at /downloads: the allowance bounds the load, not what can be read.)
 */
export const PAGES_PER_SECOND = 5;
/** Pages one address may have at once: a class opening the same page together, two pages each. */
export const PAGE_BURST = 60;
/** Addresses whose buckets a worker keeps (two numbers each); an address evicted starts with a full bucket. */
export const PAGE_ADDRESSES = 50_000;
/** Seconds a refused visitor is told to wait (Retry-After): a page's worth of the allowance comes back in 0.2 s. */
export const PAGE_RETRY_AFTER_SECONDS = 1;

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date (ms). */
  at: number;
}

export class PageAllowance {
  readonly #buckets = new Lru<Bucket>(PAGE_ADDRESSES);

  /** Takes one page of `address`'s allowance; false when none is left (the page is refused). */
  take(address: string, now: number): boolean {
    let bucket = this.#buckets.get(address);
    if (bucket === undefined) {
      bucket = { tokens: PAGE_BURST, at: now };
      this.#buckets.set(address, bucket);
    } else {
      bucket.tokens = Math.min(PAGE_BURST, bucket.tokens + ((now - bucket.at) / 1000) * PAGES_PER_SECOND);
      bucket.at = now;
    }
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}
