// The worker's read-only view of a snapshot; implemented over better-sqlite3 in reader.ts.
import type { Language, WordSummary } from '../../shared/schemas.ts';
import type { Entry } from '../../shared/schemas.ts';

export interface SearchQuery {
  /** Raw search text (already length-checked by the route); absent = browse alphabetically. */
  q?: string;
  /** Resolved active language code. */
  language?: string;
  partOfSpeech?: string;
  page: number;
  limit: number;
}

export interface SearchPage {
  /** Matches across all pages (bounded: see `truncated`). */
  total: number;
  /** The requested slice, ranked. */
  items: WordSummary[];
  /** True when the query matched more rows than the ranking bound; total is then the bound. */
  truncated: boolean;
}

export interface SnapshotMeta {
  version: string;
  formatVersion: number;
  contentHash: string;
  builtAt: string;
  sample: boolean;
  path: string;
}

export interface Snapshot {
  readonly meta: SnapshotMeta;
  /** Every language, active and preparing, with word counts. */
  languages(): readonly Language[];
  /** An active language by code or URL slug (case-insensitive), else undefined. */
  findActiveLanguage(value: string): Language | undefined;
  search(query: SearchQuery): SearchPage;
  /** Pre-serialized bodies, stored in the snapshot at build time. */
  entryJson(idOrSlug: string): string | undefined;
  languagesJson(): string;
  statsJson(): string;
  /** language = null: the day's word drawn across the active languages. date: YYYY-MM-DD. */
  wordOfTheDayJson(language: string | null, date: string): string | undefined;
  /** Parsed entry, for the website. */
  entry(idOrSlug: string): Entry | undefined;
  close(): void;
}
