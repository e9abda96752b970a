// The worker's read-only view of a snapshot; implemented over better-sqlite3 in reader.ts.
import type { Language, WordSummary } from '../../services/shared/schemas.ts';
import type { Entry } from '../../services/shared/schemas.ts';
import type { SearchScope } from '../../services/shared/vocabulary.ts';
import type { Downloads } from './downloads.ts';
import type { Suggestion } from './suggestions.ts';

export type { SearchScope };

export interface SearchQuery {
  /** Raw search text (already length-checked by the route); absent = browse alphabetically. */
  q?: string;
  /** Resolved active language code. */
  language?: string;
  partOfSpeech?: string;
  /** Browse only (no q, a language, no part of speech): the entries under this letter of the letter index. */
  letter?: string;
  /** What the text is matched with: headwords and their forms, English meanings, or both (default). */
  scope?: SearchScope;
  page: number;
  limit: number;
}

/** One letter of a language's letter index: the first character of browse keys, where its run starts, how long. */
export interface BrowseLetter {
  letter: string;
  /** Position of the letter's first entry in the language's browse order (zero-based). */
  start: number;
  count: number;
}

export interface SearchPage {
  /** Matches across all pages (bounded: see `truncated`). */
  readonly total: number;
  /** Items in the requested slice. */
  readonly count: number;
  /** UTF-8 length of the slice as JSON array elements: each word summary's JSON, comma-separated. */
  readonly itemsByteLength: number;
  /** Writes those bytes (the API sends them as they are) into `target` at `at`; returns the offset after them. */
  writeItems(target: Buffer, at: number): number;
  /** The same slice parsed (for the website). */
  readonly items: WordSummary[];
  /** True when the query matched more rows than the ranking bound; total is then the bound. */
  readonly truncated: boolean;
  /** Near headwords and forms when the query found few entries (snapshot/reader/suggestions.ts); else empty. */
  readonly suggestions: readonly Suggestion[];
}

export interface SnapshotMeta {
  version: string;
  formatVersion: number;
  contentHash: string;
  builtAt: string;
  sample: boolean;
  path: string;
}

/** One corpus the snapshot was built from (its manifest entry and what the build took from it), for /about. */
export interface CorpusSource {
  id: string;
  name: string;
  /** Language code the source covers (the manifest's `language`). */
  language: string;
  /** lexicon, examples or frequency. */
  role: string;
  url: string;
  attribution: string;
  licence: { spdx: string; name: string; url: string };
  /** Records imported from it into this snapshot (entries, examples or frequency forms). */
  records: number;
  /** Set for a lexicon whose headwords follow a spelling of their own (the manifest's headwordSpelling). */
  headwordSpelling?: { label: string; description: string };
}

export interface Snapshot {
  readonly meta: SnapshotMeta;
  /** Every language, active and preparing, with word counts. */
  languages(): readonly Language[];
  /** An active language by code or URL slug (case-insensitive), else undefined. */
  findActiveLanguage(value: string): Language | undefined;
  search(query: SearchQuery): SearchPage;
  /** The letter index of an active language's browse order: each first letter with its entries, in order. */
  browseLetters(language: string): readonly BrowseLetter[];
  /** Pre-serialized bodies, stored in the snapshot at build time. */
  entryJson(idOrSlug: string): string | undefined;
  languagesJson(): string;
  statsJson(): string;
  /** language = null: the day's word drawn across the active languages. date: YYYY-MM-DD. */
  wordOfTheDayJson(language: string | null, date: string): string | undefined;
  /** Parsed entry, for the website. */
  entry(idOrSlug: string): Entry | undefined;
  /** Every corpus the snapshot was built from, for the website's /about page; undefined for a snapshot
   *  without that list (the page then lists the sources found on entries). */
  sources?(): readonly CorpusSource[] | undefined;
  /** The open-data files built with this snapshot, opened with it (snapshot/reader/downloads.ts). */
  downloads?(): Downloads;
  close(): void;
}
