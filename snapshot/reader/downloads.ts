// openDownloads(): a worker's hold on the open-data files of its snapshot (written by snapshot/compiler/write/downloads.ts).
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, read, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';

import { DOWNLOADS_INDEX_NAME, DownloadIndexSchema, downloadsDirOf } from '../format/downloads.ts';
import type { DownloadFile, DownloadIndex } from '../format/downloads.ts';

/** Bytes read from disk per chunk: what one download holds in memory, whatever the file's size. */
export const DOWNLOAD_CHUNK_BYTES = 64 * 1024;

/** One file the worker serves: its index row, and its bytes from the descriptor opened at start. */
export interface OpenDownload {
  /** The index row the file belongs to (the JSON Lines file, or the CSV beside it). */
  readonly file: DownloadFile;
  readonly name: string;
  readonly bytes: number;
  readonly contentType: string;
  /** Strong validator: the file's sha256 from the index. */
  readonly etag: string;
  /** The whole file, a chunk at a time. */
  read(): Readable;
}

export interface Downloads {
  /** The index as the build wrote it; undefined when this snapshot has none that can be served (see problem). */
  readonly index: DownloadIndex | undefined;
  /** Why there is nothing to serve (no directory, an unreadable index, another version, a file of another size). */
  readonly problem: string | undefined;
  /** The index's bytes as served, and their validator. */
  readonly indexBody: Buffer;
  readonly indexEtag: string;
  /** A file listed in the index by its exact name; nothing else is ever opened. */
  file(name: string): OpenDownload | undefined;
  close(): void;
}

/**
 * Opens every file the index of `snapshotFile`'s downloads lists, once, at start. A worker then serves the files
 * it opened with the snapshot it opened, whatever a publish, rollback or prune later does to the directory: an
 * open descriptor keeps reading the same file. The index must name this snapshot's version and each file must
 * have the index's size, else nothing is served (a worker never mixes versions).
 */
export function openDownloads(snapshotFile: string, version: string): Downloads {
  const dir = downloadsDirOf(snapshotFile);
  let raw: Buffer;
  try {
    raw = readFileSync(path.join(dir, DOWNLOADS_INDEX_NAME));
  } catch (error) {
    return unavailable(`${dir}: no downloads index (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let index: DownloadIndex;
  try {
    const parsed = DownloadIndexSchema.safeParse(JSON.parse(raw.toString('utf8')));
    if (!parsed.success) return unavailable(`${dir}/${DOWNLOADS_INDEX_NAME}: not a downloads index (${parsed.error.issues[0]?.message})`);
    index = parsed.data;
  } catch (error) {
    return unavailable(`${dir}/${DOWNLOADS_INDEX_NAME}: not JSON (${(error as Error).message})`);
  }
  if (index.version !== version) return unavailable(`${dir}: downloads of snapshot ${index.version}, not of ${version}`);

  const opened = new Map<string, OpenDownload & { fd: number }>();
  const closeAll = (): void => {
    for (const d of opened.values()) closeSync(d.fd);
    opened.clear();
  };
  for (const file of index.files) {
    for (const one of [
      { name: file.name, bytes: file.bytes, sha256: file.sha256, contentType: 'application/gzip' },
      { ...file.csv, contentType: 'text/csv; charset=utf-8' },
    ]) {
      let fd: number;
      try {
        fd = openSync(path.join(dir, one.name), 'r');
      } catch (error) {
        closeAll();
        return unavailable(`${dir}/${one.name}: cannot open (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
      }
      opened.set(one.name, { file, name: one.name, bytes: one.bytes, contentType: one.contentType, fd, etag: `"${one.sha256}"`, read: () => new FileChunks(fd, one.bytes) });
      const size = fstatSync(fd).size;
      if (size !== one.bytes) {
        closeAll();
        return unavailable(`${dir}/${one.name}: ${size} bytes, the index says ${one.bytes}`);
      }
    }
  }
  return {
    index,
    problem: undefined,
    // Served exactly as the build wrote it, so that its checksum can be compared with the file on disk.
    indexBody: raw,
    indexEtag: etagOf(raw),
    file: (name) => opened.get(name),
    close: closeAll,
  };
}

function unavailable(problem: string): Downloads {
  const body = Buffer.from('{}');
  return { index: undefined, problem, indexBody: body, indexEtag: etagOf(body), file: () => undefined, close: () => {} };
}

function etagOf(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;
}

/**
 * Positional reads of a shared descriptor: concurrent downloads of one file never move each other's offset, and
 * destroying the stream (a client gone) leaves the descriptor open, where fs.createReadStream would close it.
 */
class FileChunks extends Readable {
  private position = 0;

  constructor(
    private readonly fd: number,
    private readonly size: number,
  ) {
    super({ highWaterMark: DOWNLOAD_CHUNK_BYTES });
  }

  override _read(): void {
    const length = Math.min(DOWNLOAD_CHUNK_BYTES, this.size - this.position);
    if (length <= 0) {
      this.push(null);
      return;
    }
    const chunk = Buffer.allocUnsafe(length);
    read(this.fd, chunk, 0, length, this.position, (error, n) => {
      if (error) return this.destroy(error);
      if (n === 0) return this.destroy(new Error(`file ended at byte ${this.position} of ${this.size}`));
      this.position += n;
      this.push(n === length ? chunk : chunk.subarray(0, n));
    });
  }
}
