// The language and part of speech of every entry, by pop, held in the worker (one byte each): full-text
// matches are filtered here instead of by tag tokens inside FTS5.
import type Database from 'better-sqlite3';

import type { MatchFilters } from './fts-query.ts';

/** Small integer codes of a closed set of strings (languages, parts of speech), for per-entry arrays. */
function codesOf(values: Iterable<string>): Map<string, number> {
  return new Map([...new Set(values)].map((value, i) => [value, i + 1]));
}

export class EntryFacets {
  private readonly languageCodes: Map<string, number>;
  private readonly posCodes: Map<string, number>;
  private readonly languageOf: Uint8Array;
  private readonly posOf: Uint8Array;

  constructor(db: Database.Database) {
    const groups = db.prepare('SELECT DISTINCT language, pos FROM entries').all() as { language: string; pos: string }[];
    this.languageCodes = codesOf(groups.map((g) => g.language));
    this.posCodes = codesOf(groups.map((g) => g.pos));
    if (this.languageCodes.size > 255 || this.posCodes.size > 255) throw new Error('more than 255 languages or parts of speech');
    const size = ((db.prepare('SELECT max(pop) FROM entries').pluck().get() as number | null) ?? 0) + 1;
    this.languageOf = new Uint8Array(size);
    this.posOf = new Uint8Array(size);
    const rows = db.prepare('SELECT pop, language, pos FROM entries').raw().iterate() as Iterable<[number, string, string]>;
    for (const [pop, language, pos] of rows) {
      this.languageOf[pop] = this.languageCodes.get(language) ?? 0;
      this.posOf[pop] = this.posCodes.get(pos) ?? 0;
    }
  }

  /** The pops (in their order) of entries that pass the filters. */
  filter(pops: readonly number[], filters: MatchFilters): number[] {
    // -1, a code no entry has: a filter value absent from the snapshot matches nothing.
    const language = filters.language ? (this.languageCodes.get(filters.language) ?? -1) : 0;
    const pos = filters.partOfSpeech ? (this.posCodes.get(filters.partOfSpeech) ?? -1) : 0;
    return pops.filter((pop) => (language === 0 || this.languageOf[pop] === language) && (pos === 0 || this.posOf[pop] === pos));
  }
}
