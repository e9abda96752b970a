// A Bloom filter over strings: "certainly absent" or "maybe present", never a false "absent".
//
// Search runs several lookups per query whose keys are mostly absent from the snapshot (an English word among
// the headwords, a headword among the glosses), and an SQLite statement costs microseconds even when it finds
// nothing. A worker asks its filters first and skips the statements they rule out. The build stores them in
// the snapshot (stored-filters.ts), so a worker reads them instead of building them at start.
import os from 'node:os';

/** About 1 % false "maybe" at 10 bits and 7 probes per key. */
const BITS_PER_KEY = 10;
const PROBES = 7;
/** A filter wider than this (16 MB) is not built: the lookups then always run, as without one. */
export const MAX_FILTER_BITS = 2 ** 27;

/**
 * Everything a stored filter's bytes depend on besides its keys: the hash, the probes, and the words in the
 * machine's byte order. A stored filter of another format is not read: the worker builds its own.
 */
export const KEY_FILTER_FORMAT = `bloom fnv1a-utf16 murmur3-fmix32 probes=${PROBES} int32-${os.endianness()} v1`;

export class KeyFilter {
  readonly #words: Int32Array;
  readonly #mask: number;

  /** A filter sized for `keys` keys, or undefined when it would be wider than MAX_FILTER_BITS. */
  static sized(keys: number): KeyFilter | undefined {
    let bits = 64;
    while (bits < keys * BITS_PER_KEY) bits *= 2;
    return bits > MAX_FILTER_BITS ? undefined : new KeyFilter(bits);
  }

  /** The filter whose bits are `bytes` (from toBytes, of KEY_FILTER_FORMAT), or undefined if no filter has that size. */
  static fromBytes(bytes: Uint8Array): KeyFilter | undefined {
    const bits = bytes.byteLength * 8;
    if (bits < 64 || bits > MAX_FILTER_BITS || (bits & (bits - 1)) !== 0) return undefined;
    const filter = new KeyFilter(bits);
    new Uint8Array(filter.#words.buffer).set(bytes);
    return filter;
  }

  private constructor(bits: number) {
    this.#words = new Int32Array(bits / 32);
    this.#mask = bits - 1;
  }

  /** Bytes held. */
  get byteLength(): number {
    return this.#words.byteLength;
  }

  /** The bits as bytes, for the snapshot (a copy). */
  toBytes(): Buffer {
    return Buffer.from(new Uint8Array(this.#words.buffer, this.#words.byteOffset, this.#words.byteLength));
  }

  /** `space` keeps keys of different meaning apart (a term and a prefix of the same text). */
  add(key: string, space = 0): void {
    this.#set(mix(fnv1a(key, space)));
  }

  /**
   * Adds each prefix of `text` longer than `from` code units that ends on a whole code point, the text itself
   * included: FNV runs over the text once, and no prefix is made into a string.
   */
  addPrefixes(text: string, from: number, space = 0): void {
    let h = FNV_OFFSET ^ space;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      h = Math.imul(h ^ code, FNV_PRIME);
      if (i >= from && !(code >= 0xd800 && code <= 0xdbff)) this.#set(mix(h));
    }
  }

  #set(h1: number): void {
    const h2 = mix(h1 ^ 0x9e3779b9) | 1;
    for (let i = 0; i < PROBES; i++) {
      const bit = (h1 + Math.imul(i, h2)) & this.#mask;
      this.#words[bit >>> 5] |= 1 << (bit & 31);
    }
  }

  mightContain(key: string, space = 0): boolean {
    const h1 = mix(fnv1a(key, space));
    const h2 = mix(h1 ^ 0x9e3779b9) | 1;
    for (let i = 0; i < PROBES; i++) {
      const bit = (h1 + Math.imul(i, h2)) & this.#mask;
      if ((this.#words[bit >>> 5] & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }
}

/** FNV-1a over the UTF-16 code units: for well-formed text, the same keys as SQLite's bytewise compare of UTF-8. */
function fnv1a(key: string, space: number): number {
  let h = FNV_OFFSET ^ space;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), FNV_PRIME);
  return h;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** MurmurHash3's finaliser: spreads FNV's low-entropy high bits over the word. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * True when text holds a surrogate code unit, paired or not. A lone one reaches SQLite as U+FFFD, which the
 * filter's hash of the code units would not match, so lookups of such text skip the filters (it is rare).
 */
export function hasSurrogate(text: string): boolean {
  return /[\uD800-\uDFFF]/.test(text);
}
