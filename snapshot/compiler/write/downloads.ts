// The open-data downloads: each entry's stored body, as it is written, into one gzipped JSON Lines file per
// (language, lexicon source), and their index (snapshot/format/downloads.ts).
import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { createWriteStream, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Gzip } from 'node:zlib';

import { DOWNLOADS_INDEX_NAME, DOWNLOADS_PATH, DownloadIndexSchema, downloadFileName } from '../../format/downloads.ts';
import type { DownloadFile, DownloadIndex, IncludedSource } from '../../format/downloads.ts';
import type { SourceManifest } from '../manifest.ts';
import type { EntryRows } from './entry-rows.ts';

/**
 * zlib's default level: the compression runs on libuv's threads while the build's own threads write the snapshot,
 * so a faster, larger level would save little of the build's time and cost every download its bytes.
 */
export const DOWNLOAD_GZIP_LEVEL = 6;
/** Compressed bytes per zlib step: each step is one trip through the event loop of the build's main thread. */
const GZIP_CHUNK_BYTES = 256 * 1024;
/**
 * Body bytes handed to zlib and not yet compressed. Past this the writer is congested and the entry writer waits
 * (writeEntries): the bodies of a 1M-entry build are about a GB, and must never queue up in memory.
 */
export const DOWNLOAD_PENDING_BYTES = 8 * 1024 * 1024;
const NEWLINE = 0x0a;
/** Smallest input buffer allocated, and the most kept for reuse (see take()). */
const MIN_BUFFER_BYTES = 64 * 1024;
const SPARE_BUFFER_BYTES = 8 * 1024 * 1024;

/** What the entry writer needs of the downloads: a batch at a time, and a way to wait while zlib catches up. */
export interface DownloadSink {
  write(rows: readonly EntryRows[]): void;
  readonly congested: boolean;
  /** Resolves once the bytes waiting for zlib are under half the bound. */
  drained(): Promise<void>;
}

interface OpenFile {
  language: string;
  source: string;
  part: string;
  gzip: Gzip;
  hash: Hash;
  bytes: number;
  entries: number;
  contributors: Set<string>;
  done: Promise<void>;
}

export class DownloadWriter implements DownloadSink {
  private readonly files = new Map<string, OpenFile>();
  private readonly sources: ReadonlyMap<string, SourceManifest>;
  private pending = 0;
  private readonly spare: Buffer[] = [];
  private spareBytes = 0;
  private waiters: (() => void)[] = [];
  private failure: Error | undefined;

  /** `dir` is created; the files are written there and the index last, by finish(). */
  constructor(
    private readonly dir: string,
    sources: readonly SourceManifest[],
    private readonly languageNames: ReadonlyMap<string, string>,
  ) {
    mkdirSync(dir, { recursive: true });
    this.sources = new Map(sources.map((s) => [s.id, s]));
  }

  get congested(): boolean {
    return this.pending > DOWNLOAD_PENDING_BYTES;
  }

  drained(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.pending <= DOWNLOAD_PENDING_BYTES / 2) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** One zlib write per file per batch: a thousand bodies joined, not a thousand small writes. */
  write(rows: readonly EntryRows[]): void {
    if (this.failure) throw this.failure;
    const lines = new Map<OpenFile, Uint8Array[]>();
    for (const r of rows) {
      const file = this.fileOf(r.facts.language, r.source);
      file.entries += 1;
      for (const c of r.contributors) file.contributors.add(c);
      let batch = lines.get(file);
      if (batch === undefined) lines.set(file, (batch = []));
      batch.push(r.body);
    }
    for (const [file, bodies] of lines) {
      // One JSON line per body: its bytes, then a newline.
      let length = 0;
      for (const body of bodies) length += body.length + 1;
      const buffer = this.take(length);
      let at = 0;
      for (const body of bodies) {
        buffer.set(body, at);
        at += body.length;
        buffer[at++] = NEWLINE;
      }
      this.pending += length;
      file.gzip.write(buffer.subarray(0, length), () => {
        this.pending -= length;
        this.give(buffer);
        if (this.pending <= DOWNLOAD_PENDING_BYTES / 2 && this.waiters.length > 0) {
          for (const wake of this.waiters.splice(0)) wake();
        }
      });
    }
  }

  /**
   * A buffer of at least `bytes`, reused once zlib is done with it. A fresh buffer per batch is memory outside
   * V8's heap, which V8 frees only after tens of MB of it have piled up, and the build's peak rises with it.
   */
  private take(bytes: number): Buffer {
    const i = this.spare.findIndex((b) => b.length >= bytes);
    if (i < 0) return Buffer.allocUnsafeSlow(Math.max(bytes, MIN_BUFFER_BYTES));
    const [buffer] = this.spare.splice(i, 1);
    this.spareBytes -= buffer.length;
    return buffer;
  }

  private give(buffer: Buffer): void {
    if (this.spareBytes + buffer.length > SPARE_BUFFER_BYTES) return;
    this.spare.push(buffer);
    this.spareBytes += buffer.length;
  }

  /**
   * Ends every file, names it with the snapshot version and writes the index. `records` = what the build took
   * from each source: a frequency (or other non-entry) source of the language is credited when it gave any.
   */
  async finish(version: string, records: ReadonlyMap<string, number>): Promise<DownloadIndex> {
    for (const file of this.files.values()) file.gzip.end();
    await Promise.all([...this.files.values()].map((f) => f.done));
    if (this.failure) throw this.failure;
    const files: DownloadFile[] = [];
    const ordered = [...this.files.values()].sort((a, b) => a.language.localeCompare(b.language) || a.source.localeCompare(b.source));
    for (const f of ordered) {
      const name = downloadFileName(f.language, f.source, version);
      renameSync(path.join(this.dir, f.part), path.join(this.dir, name));
      const source = this.source(f.source);
      const includes = [...this.sources.values()]
        .filter((s) => s.id !== f.source && (f.contributors.has(s.id) || (s.language === f.language && s.role !== 'lexicon' && s.role !== 'examples' && (records.get(s.id) ?? 0) > 0)))
        .sort((a, b) => a.id.localeCompare(b.id))
        .map((s): IncludedSource => ({ source: s.id, sourceName: s.name, sourceUrl: s.url, role: s.role, ...licenceRef(s) }));
      files.push({
        name,
        url: `${DOWNLOADS_PATH}/${name}`,
        language: f.language,
        languageName: this.languageNames.get(f.language) ?? f.language,
        source: f.source,
        sourceName: source.name,
        sourceUrl: source.url,
        ...licenceRef(source),
        entries: f.entries,
        bytes: f.bytes,
        sha256: f.hash.digest('hex'),
        includes,
      });
    }
    // Checked as the API workers will read it: a build never writes an index they would refuse.
    const index = DownloadIndexSchema.parse({ version, format: 'jsonl+gzip', files });
    writeFileSync(path.join(this.dir, DOWNLOADS_INDEX_NAME), `${JSON.stringify(index, null, 2)}\n`);
    return index;
  }

  /** Stops every file (a failed build); the caller removes the directory. */
  abort(): void {
    for (const file of this.files.values()) file.gzip.destroy();
  }

  private source(id: string): SourceManifest {
    const source = this.sources.get(id);
    if (!source) throw new Error(`entry names unknown source ${id}`);
    return source;
  }

  private fileOf(language: string, source: string): OpenFile {
    const key = `${language}\u0001${source}`;
    let file = this.files.get(key);
    if (file !== undefined) return file;
    this.source(source);
    const part = `${language}-${source}.jsonl.gz.part`;
    const gzip = createGzip({ level: DOWNLOAD_GZIP_LEVEL, chunkSize: GZIP_CHUNK_BYTES });
    const opened: OpenFile = { language, source, part, gzip, hash: createHash('sha256'), bytes: 0, entries: 0, contributors: new Set(), done: Promise.resolve() };
    const tap = async function* (chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
      for await (const chunk of chunks) {
        opened.hash.update(chunk);
        opened.bytes += chunk.length;
        yield chunk;
      }
    };
    opened.done = pipeline(gzip, tap, createWriteStream(path.join(this.dir, part))).catch((error: unknown) => {
      this.failure ??= error instanceof Error ? error : new Error(String(error));
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.files.set(key, opened);
    return opened;
  }
}

function licenceRef(s: SourceManifest): { licence: string; licenceName: string; licenceUrl: string; attribution: string } {
  return { licence: s.licence.spdx, licenceName: s.licence.name, licenceUrl: s.licence.url, attribution: s.attribution };
}
