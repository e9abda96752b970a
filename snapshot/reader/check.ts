// The check a worker makes of a snapshot file before it maps it: the length its SQLite header promises (a file cut
// short by a `cp` over it), and the SHA-256 the build wrote beside it (bytes changed in place). Reading and hashing
// the file costs a fraction of a quick_check (scripts/bench/open-snapshot.ts prints both times).
import fs from 'node:fs';

import { readSha256Sidecar, SHA256_SUFFIX, sha256OfFile } from '../format/file-hash.ts';

const HEADER_BYTES = 100;
const MAGIC = 'SQLite format 3\u0000';

export type SnapshotCheck =
  | { ok: true; verified: 'sha256' | 'length'; file: string }
  | { ok: false; reason: string; file: string };

/**
 * Checks `path` (a symlink is followed: the build's sidecar sits beside the file it points at). Without a
 * sidecar (a snapshot copied by hand) only the length can be checked, and `verified` says so.
 */
export function checkSnapshotFile(path: string): SnapshotCheck {
  let file = path;
  try {
    file = fs.realpathSync(path);
    const size = fs.statSync(file).size;
    const header = Buffer.alloc(HEADER_BYTES);
    const fd = fs.openSync(file, 'r');
    try {
      fs.readSync(fd, header, 0, HEADER_BYTES, 0);
    } finally {
      fs.closeSync(fd);
    }
    if (size < HEADER_BYTES || header.toString('latin1', 0, MAGIC.length) !== MAGIC) {
      return { ok: false, file, reason: `not a SQLite database (${size} bytes)` };
    }
    const raw = header.readUInt16BE(16);
    const pageSize = raw === 1 ? 65536 : raw;
    // The page count in the header is valid when written by a SQLite that also wrote "version-valid-for".
    if (header.readUInt32BE(24) === header.readUInt32BE(92)) {
      const expected = pageSize * header.readUInt32BE(28);
      if (size < expected) return { ok: false, file, reason: `truncated: ${size} bytes of the ${expected} its header promises` };
    }
    const stored = readSha256Sidecar(file);
    if (stored === undefined) return { ok: true, file, verified: 'length' };
    if (stored === null) return { ok: false, file, reason: `${file}${SHA256_SUFFIX} holds no SHA-256` };
    const actual = sha256OfFile(file);
    if (actual !== stored) return { ok: false, file, reason: `SHA-256 ${actual.slice(0, 16)}… differs from the build's ${stored.slice(0, 16)}…: bytes changed since the build` };
    return { ok: true, file, verified: 'sha256' };
  } catch (error) {
    return { ok: false, file, reason: (error as Error).message };
  }
}
