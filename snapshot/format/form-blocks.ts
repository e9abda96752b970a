// The other_forms table's blocks: sorted keys front-coded (each key as the bytes it shares with the one before
// and the rest), each with the global ranks of its entries. Zulu alone has 369,561 folded inflected forms, 3.9 MB of key
// text; as rows of the forms B-tree (key, kind, global_rank, language, pos) they would take several times that.

/** Keys per block: a lookup decodes at most this many keys, a few microseconds. */
export const FORM_BLOCK_KEYS = 32;

function writeVarint(out: number[], value: number): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
}

/** Reads a varint at `at.i`, advancing it. */
function readVarint(bytes: Uint8Array, at: { i: number }): number {
  let value = 0;
  let scale = 1;
  for (;;) {
    const b = bytes[at.i++];
    value += (b & 0x7f) * scale;
    if (b < 0x80) return value;
    scale *= 128;
  }
}

/** One block: keys (UTF-8, ascending bytewise, distinct) each with its global ranks (ascending). */
export function encodeFormBlock(keys: readonly Buffer[], globalRanks: readonly (readonly number[])[]): Buffer {
  const out: number[] = [];
  let previous: Buffer = Buffer.alloc(0);
  keys.forEach((key, k) => {
    let shared = 0;
    while (shared < key.length && shared < previous.length && key[shared] === previous[shared]) shared++;
    writeVarint(out, shared);
    writeVarint(out, key.length - shared);
    for (let i = shared; i < key.length; i++) out.push(key[i]);
    writeVarint(out, globalRanks[k].length);
    let last = 0;
    for (const globalRank of globalRanks[k]) {
      writeVarint(out, globalRank - last);
      last = globalRank;
    }
    previous = key;
  });
  return Buffer.from(out);
}

/** Every key of a block with its global ranks, in order (the key filter reads them all once). */
export function* decodeFormBlock(block: Uint8Array): Generator<[key: Buffer, globalRanks: number[]]> {
  const at = { i: 0 };
  let previous = Buffer.alloc(0);
  while (at.i < block.length) {
    const shared = readVarint(block, at);
    const rest = readVarint(block, at);
    const key = Buffer.allocUnsafe(shared + rest);
    previous.copy(key, 0, 0, shared);
    key.set(block.subarray(at.i, at.i + rest), shared);
    at.i += rest;
    const count = readVarint(block, at);
    const globalRanks: number[] = [];
    let last = 0;
    for (let p = 0; p < count; p++) globalRanks.push((last += readVarint(block, at)));
    yield [key, globalRanks];
    previous = key;
  }
}

/** The global ranks of `key` in a block, or an empty list. */
export function findInFormBlock(block: Uint8Array, key: Buffer): number[] {
  for (const [k, globalRanks] of decodeFormBlock(block)) {
    const order = Buffer.compare(k, key);
    if (order === 0) return globalRanks;
    if (order > 0) break;
  }
  return [];
}
