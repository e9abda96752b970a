// The SHA-256 of a snapshot file, written by the build beside it (`<file>.sha256`, sha256sum's format, so that
// `sha256sum -c` checks it too) and checked by every API worker before it maps the file (snapshot/reader/check.ts).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const SHA256_SUFFIX = '.sha256';
const READ_CHUNK_BYTES = 1024 * 1024;

export function sha256OfFile(file: string): string {
  const hash = createHash('sha256');
  const fd = fs.openSync(file, 'r');
  try {
    const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    for (let n; (n = fs.readSync(fd, chunk, 0, chunk.length, null)) > 0; ) hash.update(chunk.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

/** Writes `<named>.sha256` for the bytes of `file` (the build's temp file, named as it will be), atomically. */
export function writeSha256Sidecar(file: string, named: string): void {
  const sidecar = `${named}${SHA256_SUFFIX}`;
  const tmp = `${sidecar}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${sha256OfFile(file)}  ${path.basename(named)}\n`);
  fs.renameSync(tmp, sidecar);
}

/** The digest a sidecar holds; undefined when there is none, null when it holds no digest. */
export function readSha256Sidecar(file: string): string | null | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`${file}${SHA256_SUFFIX}`, 'utf8');
  } catch {
    return undefined;
  }
  return /^([0-9a-f]{64})\b/.exec(text)?.[1] ?? null;
}
