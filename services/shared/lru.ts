// A bounded least-recently-used map over string keys (Map keeps insertion order: re-inserting on a hit moves a
// key to the young end). Used by the API workers for rendered pages, entries, days and ranked result lists.

export interface LruOptions {
  /**
   * Store a key only from its second sighting (a "doorkeeper", as in TinyLFU): a stream of keys that never
   * come back (a crawler, the long tail of searches) then passes by the cache instead of evicting the keys
   * that do come back, and costs no garbage collection: each entry cached and evicted unused had been
   * promoted to V8's old generation first, which the bench's search mix (no query repeats within 20,000)
   * turned into frequent full collections in every worker (scripts/bench/notes.md, session 3). A repeated
   * key pays one miss more.
   */
  secondSighting?: boolean;
}

export class Lru<V> {
  readonly #map = new Map<string, V>();
  readonly #doorkeeper: Doorkeeper | undefined;

  constructor(
    readonly capacity: number,
    options: LruOptions = {},
  ) {
    // Keys are remembered over a window of 4 × capacity distinct sightings: long enough for a key to come
    // back while the cache would still hold it.
    this.#doorkeeper = options.secondSighting ? new Doorkeeper(4 * capacity) : undefined;
  }

  get(key: string): V | undefined {
    const value = this.#map.get(key);
    if (value !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    if (this.#doorkeeper !== undefined && !this.#map.has(key) && !this.#doorkeeper.sighted(key)) return;
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.capacity) this.#map.delete(this.#map.keys().next().value as string);
  }

  get size(): number {
    return this.#map.size;
  }
}

/**
 * Which keys were seen in the current window, as one bit per hash (16 bit slots per key of the window, so a
 * new key passes for seen at most 1/16 of the time). The bits are cleared once the window is full.
 */
export class Doorkeeper {
  readonly #bits: Uint32Array;
  readonly #mask: number;
  #marked = 0;

  constructor(readonly window: number) {
    let slots = 32;
    while (slots < 16 * window) slots *= 2;
    this.#bits = new Uint32Array(slots / 32);
    this.#mask = slots - 1;
  }

  /** Marks `key` as seen; true when it (or a key with the same hash) was already marked in this window. */
  sighted(key: string): boolean {
    const slot = hash(key) & this.#mask;
    const word = slot >>> 5;
    const bit = 1 << (slot & 31);
    if ((this.#bits[word] & bit) !== 0) return true;
    if (++this.#marked > this.window) {
      this.#bits.fill(0);
      this.#marked = 1;
    }
    this.#bits[word] |= bit;
    return false;
  }
}

/** FNV-1a over UTF-16 code units, then MurmurHash3's finaliser so that the low bits mix well. */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
