// The open-data downloads: each entry's stored body, as it is written, into one gzipped JSON Lines file per
// (language, lexicon source), the same entries as a CSV table beside it, and their index
// (snapshot/format/downloads.ts).
import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { createWriteStream, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import type { WriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Gzip } from 'node:zlib';

import { CSV_COLUMNS, DOWNLOADS_INDEX_NAME, DOWNLOADS_PATH, DownloadIndexSchema, downloadCsvName, downloadFileName } from '../../format/downloads.ts';
import type { WordSummary } from '../../../services/shared/schemas.ts';
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
  /** The same entries as CSV: written as they are (a spreadsheet opens no gzip). */
  csv: { part: string; stream: WriteStream; hash: Hash; bytes: number; done: Promise<void> };
}

/** UTF-8's byte-order mark: without it a spreadsheet may read the file in a legacy code page. */
const BOM = '\uFEFF';
const CRLF = '\r\n';

/** A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break, its quotes doubled. */
function csvField(value: string | number | boolean | null): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One entry's row, from its stored summary (smaller to parse than its body); CSV_COLUMNS' order. */
function csvRow(summaryJson: string, source: string, licence: string): string {
  const s = JSON.parse(summaryJson) as WordSummary;
  return [s.id, s.language, s.headword, s.exactForm, s.partOfSpeech, s.pronunciation, s.glosses.join('; '), s.isCommon, s.frequencyRank, `/words/${encodeURIComponent(s.slug)}`, source, licence]
    .map(csvField)
    .join(',') + CRLF;
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
    const csvRows = new Map<OpenFile, string[]>();
    for (const r of rows) {
      const file = this.fileOf(r.facts.language, r.source);
      file.entries += 1;
      for (const c of r.contributors) file.contributors.add(c);
      let batch = lines.get(file);
      if (batch === undefined) lines.set(file, (batch = []));
      batch.push(r.body);
      let table = csvRows.get(file);
      if (table === undefined) csvRows.set(file, (table = []));
      table.push(csvRow(r.summary, r.source, this.source(r.source).licence.spdx));
    }
    for (const [file, table] of csvRows) {
      const text = Buffer.from(table.join(''), 'utf8');
      file.csv.hash.update(text);
      file.csv.bytes += text.length;
      this.pending += text.length;
      file.csv.stream.write(text, () => this.settle(text.length));
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
        this.give(buffer);
        this.settle(length);
      });
    }
  }

  /** `bytes` handed on have been taken: wakes the entry writer once the backlog is under half the bound. */
  private settle(bytes: number): void {
    this.pending -= bytes;
    if (this.pending <= DOWNLOAD_PENDING_BYTES / 2 && this.waiters.length > 0) {
      for (const wake of this.waiters.splice(0)) wake();
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
    for (const file of this.files.values()) {
      file.gzip.end();
      file.csv.stream.end();
    }
    await Promise.all([...this.files.values()].flatMap((f) => [f.done, f.csv.done]));
    if (this.failure) throw this.failure;
    const files: DownloadFile[] = [];
    const ordered = [...this.files.values()].sort((a, b) => a.language.localeCompare(b.language) || a.source.localeCompare(b.source));
    for (const f of ordered) {
      const name = downloadFileName(f.language, f.source, version);
      renameSync(path.join(this.dir, f.part), path.join(this.dir, name));
      const csvName = downloadCsvName(f.language, f.source, version);
      renameSync(path.join(this.dir, f.csv.part), path.join(this.dir, csvName));
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
        csv: { name: csvName, url: `${DOWNLOADS_PATH}/${csvName}`, bytes: f.csv.bytes, sha256: f.csv.hash.digest('hex') },
      });
    }
    // Checked as the API workers will read it: a build never writes an index they would refuse.
    const index = DownloadIndexSchema.parse({ version, format: 'jsonl+gzip', files });
    writeFileSync(path.join(this.dir, DOWNLOADS_INDEX_NAME), `${JSON.stringify(index, null, 2)}\n`);
    return index;
  }

  /** Stops every file (a failed build); the caller removes the directory. */
  abort(): void {
    for (const file of this.files.values()) {
      file.gzip.destroy();
      file.csv.stream.destroy();
    }
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
    const csvPart = `${language}-${source}.csv.part`;
    const csvStream = createWriteStream(path.join(this.dir, csvPart));
    const header = Buffer.from(BOM + CSV_COLUMNS.join(',') + CRLF, 'utf8');
    const csv = { part: csvPart, stream: csvStream, hash: createHash('sha256').update(header), bytes: header.length, done: Promise.resolve() };
    csvStream.write(header);
    csv.done = new Promise<void>((resolve) => {
      csvStream.once('finish', () => resolve());
      csvStream.once('close', () => resolve());
      csvStream.once('error', (error) => {
        this.failure ??= error;
        for (const wake of this.waiters.splice(0)) wake();
        resolve();
      });
    });
    const opened: OpenFile = { language, source, part, gzip, hash: createHash('sha256'), bytes: 0, entries: 0, contributors: new Set(), done: Promise.resolve(), csv };
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
