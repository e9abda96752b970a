// The `facets` table: each entry's language and part of speech as one byte per global rank, which the API workers
// load whole (snapshot/reader/entry-facets.ts) to filter full-text matches in memory.
import type Database from 'better-sqlite3';

import { FACET, MAX_FACET_LABELS, facetCode } from '../../format/format.ts';
import { PARTS_OF_SPEECH } from '../../../services/shared/vocabulary.ts';
import type { FactsTable } from './facts.ts';

/** Each entry's byte is facetCode of its label's index; a global rank without an entry keeps 0. */
export function writeFacets(db: Database.Database, facts: FactsTable): void {
  if (facts.languages.length > MAX_FACET_LABELS) throw new Error(`more than ${MAX_FACET_LABELS} languages do not fit the one-byte facet codes`);
  const language = new Uint8Array(facts.size + 1);
  const pos = new Uint8Array(facts.size + 1);
  for (const globalRank of facts.globalRanks()) {
    language[globalRank] = facetCode(facts.language[globalRank]);
    pos[globalRank] = facetCode(facts.pos[globalRank]);
  }
  const insert = db.prepare('INSERT INTO facets (name, labels, codes) VALUES (?, ?, ?)');
  insert.run(FACET.language, JSON.stringify(facts.languages), Buffer.from(language.buffer));
  insert.run(FACET.partOfSpeech, JSON.stringify(PARTS_OF_SPEECH), Buffer.from(pos.buffer));
}
