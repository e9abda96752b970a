// The `facets` table: each entry's language and part of speech as one byte per global rank, which the API workers
// load whole (snapshot/reader/entry-facets.ts) to filter full-text matches in memory.
import type Database from 'better-sqlite3';

import { FACET } from '../../format/format.ts';
import { PARTS_OF_SPEECH } from '../../../services/shared/vocabulary.ts';
import type { FactsTable } from './facts.ts';

/** Codes are 1 + the index into the labels; 0 marks a global rank without an entry. */
export function writeFacets(db: Database.Database, facts: FactsTable): void {
  if (facts.languages.length > 255) throw new Error('more than 255 languages do not fit the one-byte facet codes');
  const language = new Uint8Array(facts.size + 1);
  const pos = new Uint8Array(facts.size + 1);
  for (const globalRank of facts.globalRanks()) {
    language[globalRank] = facts.language[globalRank] + 1;
    pos[globalRank] = facts.pos[globalRank] + 1;
  }
  const insert = db.prepare('INSERT INTO facets (name, labels, codes) VALUES (?, ?, ?)');
  insert.run(FACET.language, JSON.stringify(facts.languages), Buffer.from(language.buffer));
  insert.run(FACET.partOfSpeech, JSON.stringify(PARTS_OF_SPEECH), Buffer.from(pos.buffer));
}
