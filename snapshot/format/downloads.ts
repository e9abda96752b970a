// The open-data downloads of a snapshot: where they live beside it, how files are named, and the index's schema.
import { z } from 'zod';

/** URL path under which the API workers serve the index and the files. */
export const DOWNLOADS_PATH = '/downloads';
export const DOWNLOADS_INDEX_NAME = 'index.json';

/**
 * The downloads of the snapshot file `snapshotFile` live in a directory named after it, so that a publish and a
 * rollback, which switch which file current.sqlite names, switch its downloads with it, and a pruned snapshot's
 * downloads go with it.
 */
export function downloadsDirOf(snapshotFile: string): string {
  return `${snapshotFile}.downloads`;
}

/** A file's name: language and source ids are manifest ids ([a-z0-9-]), the version is the snapshot's. */
export function downloadFileName(language: string, source: string, version: string): string {
  return `${language}-${source}-${version}.jsonl.gz`;
}

/** The same entries as a table a spreadsheet opens: `<language>-<source>-<version>.csv`. */
export function downloadCsvName(language: string, source: string, version: string): string {
  return `${language}-${source}-${version}.csv`;
}

/** Names the index may list: one path segment of plain characters, so that no name can leave the directory. */
export const DOWNLOAD_NAME = /^[a-z0-9][a-z0-9.-]*\.jsonl\.gz$/;
export const DOWNLOAD_CSV_NAME = /^[a-z0-9][a-z0-9.-]*\.csv$/;

/**
 * The CSV files' columns, in order: RFC 4180 (comma-separated, double quotes, CRLF), UTF-8 with a byte-order
 * mark so that spreadsheets read the tone marks right. `glosses` joins the English meanings with "; ";
 * `licence` and `source` repeat the file's on every row, so that a row copied elsewhere keeps them.
 */
export const CSV_COLUMNS = ['id', 'language', 'headword', 'exact_form', 'part_of_speech', 'pronunciation', 'glosses', 'is_common', 'frequency_rank', 'page', 'source', 'licence'] as const;

export const DownloadCsvSchema = z.object({
  name: z.string().regex(DOWNLOAD_CSV_NAME),
  url: z.string().describe('path of the file on this site: /downloads/<name>'),
  bytes: z.number().int().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type DownloadCsv = z.infer<typeof DownloadCsvSchema>;

/** The licence of a source, as the manifest gives it, and the line to credit it with. */
const licenceFields = {
  licence: z.string().min(1).describe('SPDX licence identifier'),
  licenceName: z.string(),
  licenceUrl: z.string(),
  attribution: z.string().describe('the attribution line to copy'),
};

/** Another corpus whose data the entries of a file carry (example sentences, frequency ranks). */
export const IncludedSourceSchema = z.object({
  source: z.string(),
  sourceName: z.string(),
  sourceUrl: z.string(),
  role: z.string().describe('what the entries take from it: the manifest role (examples, frequency, …)'),
  ...licenceFields,
});
export type IncludedSource = z.infer<typeof IncludedSourceSchema>;

export const DownloadFileSchema = z.object({
  name: z.string().regex(DOWNLOAD_NAME),
  url: z.string().describe('path of the file on this site: /downloads/<name>'),
  language: z.string(),
  languageName: z.string(),
  source: z.string().describe('the lexicon source every entry of the file names (its manifest id)'),
  sourceName: z.string(),
  sourceUrl: z.string(),
  ...licenceFields,
  entries: z.number().int().min(1).describe('lines: one entry each, as GET /api/v1/words/{id} returns it'),
  bytes: z.number().int().min(1).describe('size of the gzipped file'),
  sha256: z.string().regex(/^[0-9a-f]{64}$/).describe('of the gzipped file'),
  includes: z.array(IncludedSourceSchema),
  csv: DownloadCsvSchema.describe('the same entries as CSV (CSV_COLUMNS), under the same licence and attribution'),
});
export type DownloadFile = z.infer<typeof DownloadFileSchema>;

export const DownloadIndexSchema = z.object({
  version: z.string().describe('the snapshot version these files were built with'),
  format: z.literal('jsonl+gzip'),
  files: z.array(DownloadFileSchema),
});
export type DownloadIndex = z.infer<typeof DownloadIndexSchema>;
