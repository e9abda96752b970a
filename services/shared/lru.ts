// A bounded map over string keys that evicts what has not been read lately (second chance, "CLOCK": an
// approximation of least-recently-used). Used by the API workers for rendered pages, entries, days and ranked
// result lists. A hit only marks its entry; keys move only when eviction passes over them. Moving a key on
// every hit (delete and set on the Map) makes V8 rebuild the Map's hash table every few hits, and the table of
// a long-lived Map is in the old generation, so each rebuilt one is allocated there: under lookups, full
// collections in every worker.

export interface LruOptions {
  /**
   * Store a key only from its second sighting (a "doorkeeper", as in TinyLFU): a stream of keys that never
   * come back (a crawler, the long tail of searches) then passes by the cache instead of evicting the keys
   * that do come back, and costs no garbage collection: an entry cached and evicted unused is promoted to
   * V8's old generation first, so a stream of new keys (the bench's search mix repeats no query within
   * 20,000) turns into frequent full collections in every worker. A repeated key pays one miss more.
   */
  secondSighting?: boolean;
}

interface Slot<V> {
  value: V;
  /** Read since eviction last passed over it. */
  read: boolean;
}

export class Lru<V> {
  /** In insertion order: the oldest key first, as eviction looks at them. */
  readonly #map = new Map<string, Slot<V>>();
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
    const slot = this.#map.get(key);
    if (slot === undefined) return undefined;
    slot.read = true;
    return slot.value;
  }

  /** Stores `value` under `key`; false when the doorkeeper let it pass by (a first sighting). */
  set(key: string, value: V): boolean {
    const slot = this.#map.get(key);
    if (slot !== undefined) {
      slot.value = value;
      slot.read = true;
      return true;
    }
    if (this.#doorkeeper !== undefined && !this.#doorkeeper.sighted(key)) return false;
    this.#map.set(key, { value, read: false });
    if (this.#map.size > this.capacity) this.#evict();
    return true;
  }

  get size(): number {
    return this.#map.size;
  }

  /** The keys held, oldest first. */
  keys(): IterableIterator<string> {
    return this.#map.keys();
  }

  /**
   * Drops the oldest key that was not read since eviction last passed over it; a read key gets a second chance
   * (its mark cleared, moved to the young end). Every pass clears marks, so this ends within one round.
   */
  #evict(): void {
    for (const [key, slot] of this.#map) {
      this.#map.delete(key);
      if (!slot.read) return;
      slot.read = false;
      this.#map.set(key, slot);
    }
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
