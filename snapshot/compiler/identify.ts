// Phase 3: group staged records by key, count merges, and give every entry its id, slug and rank.
import type Database from 'better-sqlite3';

import { fold } from '../format/text.ts';
import type { PartOfSpeech } from '../../services/shared/vocabulary.ts';
import { pages } from './batches.ts';
import { isCommonRank } from './frequency.ts';
import { IdentityAllocator } from './identity.ts';
import type { Progress } from './progress.ts';
import { rankEntries } from './ranking.ts';
import type { ReportBuilder } from './report.ts';

interface LexHead {
  key: string;
  seq: number;
  source_id: string;
  language: string;
  exact_form: string;
  pos: string;
  etym: number | null;
  counted: number;
  tone_marked: number;
}

/**
 * Entries of the `served` languages get their identity and rank; a language that is not active yet has its
 * records imported and reported (its maintainers see where it stands) but no entry in the snapshot.
 */
export function identifyEntries(db: Database.Database, served: ReadonlySet<string>, report: ReportBuilder, progress: Progress): number {
  const total = (db.prepare('SELECT count(*) AS n FROM stage.lex').get() as { n: number }).n;
  const rows = db.prepare<[string, number, number], LexHead>(
    'SELECT key, seq, source_id, language, exact_form, pos, etym, counted, tone_marked FROM stage.lex WHERE (key, seq) > (?, ?) ORDER BY key, seq LIMIT ?',
  );
  const insert = db.prepare(
    'INSERT INTO stage.entry (n, key, id, slug, language, exact_form, exact_lower, folded, pos, tone_marked) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const allocator = new IdentityAllocator();
  let n = 0;
  progress.phase('identify entries', total);
  let previous = '';
  db.transaction(() => {
    for (const row of pages<LexHead>((after, limit) => rows.all(after?.key ?? '', after?.seq ?? -1, limit))) {
      progress.tick();
      // Uncounted rows are further entries of a record already reported (one per part of speech).
      if (row.key === previous) {
        if (row.counted) report.merged(row.source_id, 'duplicate record (same form, part of speech and etymology) merged');
        continue;
      }
      previous = row.key;
      if (row.counted) report.imported(row.source_id);
      if (!served.has(row.language)) continue;
      const { id, slug } = allocator.allocate(row.key, {
        exactForm: row.exact_form,
        language: row.language,
        partOfSpeech: row.pos as PartOfSpeech,
        etymologyNumber: row.etym,
      });
      insert.run(n++, row.key, id, slug, row.language, row.exact_form, row.exact_form.toLowerCase(), fold(row.exact_form), row.pos, row.tone_marked);
    }
  })();
  progress.end();
  if (allocator.collisions > 0) progress.log(`identity: ${allocator.collisions} id/slug collision(s) resolved deterministically`);
  return n;
}

/**
 * Every entry's global rank (ranking.ts), from the frequency ranks the lists credit to entries (entry key → rank,
 * frequency.ts): set once what decides them (standard spellings, the credited lines) is known.
 */
export function rankGlobally(db: Database.Database, frequencyRanks: ReadonlyMap<string, number>): void {
  const rows = db.prepare<[], { key: string; exact_form: string; id: number }>('SELECT key, exact_form, id FROM stage.entry ORDER BY n').all();
  const rank = (key: string): number => frequencyRanks.get(key) ?? 0;
  const globalRanks = rankEntries({
    isCommon: Uint8Array.from(rows, (r) => (isCommonRank(frequencyRanks.get(r.key) ?? null) ? 1 : 0)),
    frequencyRank: Uint32Array.from(rows, (r) => rank(r.key)),
    length: Uint32Array.from(rows, (r) => [...r.exact_form].length),
    id: Float64Array.from(rows, (r) => r.id),
  });
  const setGlobalRank = db.prepare('UPDATE stage.entry SET global_rank = ? WHERE n = ?');
  db.transaction(() => {
    for (let n = 0; n < globalRanks.length; n++) setGlobalRank.run(globalRanks[n], n);
  })();
}
