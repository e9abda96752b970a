// Inflected forms (a StarDict archive's synonyms: stardict-syn) lead to their entries: folded, de-duplicated,
// reported one by one.
import type Database from 'better-sqlite3';

import { fold } from '../format/text.ts';
import { pages } from './batches.ts';
import type { Progress } from './progress.ts';
import type { ReportBuilder } from './report.ts';

interface InflectionRow {
  seq: number;
  source_id: string;
  language: string;
  form: string;
  headword: string;
}

/**
 * Each staged inflected form: imported when it leads to an entry under a key it did not have yet, merged when
 * it is the headword itself or folds like another form of the same entry, rejected when its article is not an
 * entry (no English gloss, or a language not served yet).
 */
export function resolveInflections(db: Database.Database, report: ReportBuilder, progress: Progress): number {
  const total = (db.prepare('SELECT count(*) AS n FROM stage.inflection').get() as { n: number }).n;
  if (total === 0) return 0;
  const rows = db.prepare<[number, number], InflectionRow>('SELECT seq, source_id, language, form, headword FROM stage.inflection WHERE seq > ? ORDER BY seq LIMIT ?');
  const entriesOf = db.prepare<[string, string], { key: string; folded: string }>('SELECT key, folded FROM stage.entry WHERE language = ? AND exact_form = ?');
  const insert = db.prepare('INSERT INTO stage.entry_inflection (key, entry_key) VALUES (?, ?)');
  const entries = new Map<string, { key: string; folded: string }[]>();
  const seen = new Set<string>();
  let imported = 0;
  progress.phase('inflected forms', total);
  db.transaction(() => {
    for (const row of pages<InflectionRow>((after, limit) => rows.all(after?.seq ?? -1, limit))) {
      progress.tick();
      const where = `${row.language}\u0001${row.headword}`;
      let targets = entries.get(where);
      if (!targets) {
        targets = entriesOf.all(row.language, row.headword);
        entries.set(where, targets);
      }
      if (targets.length === 0) {
        report.rejected(row.source_id, 'leads to an article that is not an entry (no English gloss, or its language is not served)');
        continue;
      }
      const key = fold(row.form);
      let added = false;
      for (const target of targets) {
        if (key === target.folded) continue;
        const pair = `${key}\u0001${target.key}`;
        if (seen.has(pair)) continue;
        seen.add(pair);
        insert.run(key, target.key);
        added = true;
      }
      if (added) {
        report.imported(row.source_id);
        imported += 1;
      } else if (targets.some((t) => t.folded === key)) report.merged(row.source_id, 'the headword itself (with or without tone and length marks)');
      else report.merged(row.source_id, 'folds like another inflected form of the same entry');
    }
  })();
  progress.end();
  return imported;
}
