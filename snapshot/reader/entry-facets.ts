// The language and part of speech of every entry, by global rank, held in the worker (one byte each, stored so by
// the build in the `facets` table): full-text matches are filtered here instead of by tag tokens in FTS5.
import type Database from 'better-sqlite3';

import { FACET, facetCode } from '../format/format.ts';
import type { MatchFilters } from './fts-query.ts';

interface Facet {
  /** Code of each label (facetCode of its index in the stored labels). */
  codes: Map<string, number>;
  byGlobalRank: Uint8Array;
}

export class EntryFacets {
  private readonly language: Facet;
  private readonly pos: Facet;

  constructor(db: Database.Database) {
    const rows = db.prepare('SELECT name, labels, codes FROM facets').all() as { name: string; labels: string; codes: Buffer }[];
    const facet = (name: string): Facet => {
      const row = rows.find((r) => r.name === name);
      if (!row) throw new Error(`snapshot has no ${name} facet`);
      const labels = JSON.parse(row.labels) as string[];
      return { codes: new Map(labels.map((label, i) => [label, facetCode(i)])), byGlobalRank: new Uint8Array(row.codes) };
    };
    this.language = facet(FACET.language);
    this.pos = facet(FACET.partOfSpeech);
  }

  /** The global ranks (in their order) of entries that pass the filters. */
  filter(globalRanks: readonly number[], filters: MatchFilters): number[] {
    // -1, a code no entry has: a filter value absent from the snapshot matches nothing.
    const language = filters.language ? (this.language.codes.get(filters.language) ?? -1) : 0;
    const pos = filters.partOfSpeech ? (this.pos.codes.get(filters.partOfSpeech) ?? -1) : 0;
    const byLanguage = this.language.byGlobalRank;
    const byPos = this.pos.byGlobalRank;
    return globalRanks.filter((globalRank) => (language === 0 || byLanguage[globalRank] === language) && (pos === 0 || byPos[globalRank] === pos));
  }
}
