// Inflected forms (a StarDict archive's synonyms, UniMorph tables) lead to their entries: folded, de-duplicated,
// reported one by one; labelled forms (UniMorph's features) are also listed in the entry's inflection table.
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
  other_headword: string | null;
  features: string | null;
  pos: string | null;
}

interface Target {
  key: string;
  folded: string;
  pos: string;
}

/** Why an inflected form leads nowhere (the report counts each). */
export const INFLECTION_REJECTIONS = {
  article: 'leads to an article that is not an entry (no English gloss, or its language is not served)',
  lemma: 'its lemma is not an entry (no glossed entry of that word, or its language is not served)',
  partOfSpeech: "its lemma has entries of other parts of speech only, several of them (the table's is not the lexicon's)",
} as const;

/** The entries a row leads to: its headword's, of the row's part of speech where it gives one (else its one entry); or why none. */
function targetsOf(row: InflectionRow, all: readonly Target[]): readonly Target[] | string {
  const reason = row.features === null ? INFLECTION_REJECTIONS.article : INFLECTION_REJECTIONS.lemma;
  if (all.length === 0) return reason;
  if (row.pos === null) return all;
  const same = all.filter((t) => t.pos === row.pos);
  if (same.length > 0) return same;
  // The word's one entry is the lemma whatever class the lexicon gives it (a Swahili possessive stem angu, which
  // the table calls ADJ; an Amharic lemma whose gloss joined Wiktionary's entry, reverse.ts); among several, none is.
  const keys = new Set(all.map((t) => t.key));
  return keys.size === 1 ? all : INFLECTION_REJECTIONS.partOfSpeech;
}

/**
 * Each staged inflected form: imported when it leads to an entry under a key it did not have yet, or is listed in
 * the entry's inflection table (a labelled form not listed yet); merged when it is the headword itself, folds like
 * another form of the same entry, or repeats a row of its table; rejected when its article or lemma is not an entry.
 */
export function resolveInflections(db: Database.Database, report: ReportBuilder, progress: Progress): number {
  const total = (db.prepare('SELECT count(*) AS n FROM stage.inflection').get() as { n: number }).n;
  if (total === 0) return 0;
  const rows = db.prepare<[number, number], InflectionRow>(
    'SELECT seq, source_id, language, form, headword, other_headword, features, pos FROM stage.inflection WHERE seq > ? ORDER BY seq LIMIT ?',
  );
  const entriesOf = db.prepare<[string, string], Target>('SELECT key, folded, pos FROM stage.entry WHERE language = ? AND exact_form = ?');
  const insert = db.prepare('INSERT INTO stage.entry_inflection (key, entry_key) VALUES (?, ?)');
  const list = db.prepare('INSERT INTO stage.entry_table_form (entry_key, seq, source_id, form, features) VALUES (?, ?, ?, ?, ?)');
  const entries = new Map<string, Target[]>();
  const entriesNamed = (language: string, headword: string): Target[] => {
    const where = `${language}\u0001${headword}`;
    let found = entries.get(where);
    if (!found) {
      found = entriesOf.all(language, headword);
      entries.set(where, found);
    }
    return found;
  };
  const seen = new Set<string>();
  const listed = new Set<string>();
  let imported = 0;
  progress.phase('inflected forms', total);
  db.transaction(() => {
    for (const row of pages<InflectionRow>((after, limit) => rows.all(after?.seq ?? -1, limit))) {
      progress.tick();
      let targets = targetsOf(row, entriesNamed(row.language, row.headword));
      if (typeof targets === 'string' && row.other_headword !== null) targets = targetsOf(row, entriesNamed(row.language, row.other_headword));
      if (typeof targets === 'string') {
        report.rejected(row.source_id, targets);
        continue;
      }
      const key = fold(row.form);
      let added = false;
      for (const target of targets) {
        if (row.features !== null) {
          const entry = `${target.key}\u0001${row.source_id}\u0001${row.form}\u0001${row.features}`;
          if (!listed.has(entry)) {
            listed.add(entry);
            list.run(target.key, row.seq, row.source_id, row.form, row.features);
            added = true;
          }
        }
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
      } else if (row.features !== null) report.merged(row.source_id, 'same lemma, form and features as an earlier row of the table');
      else if (targets.some((t) => t.folded === key)) report.merged(row.source_id, 'the headword itself (with or without tone and length marks)');
      else report.merged(row.source_id, 'folds like another inflected form of the same entry');
    }
  })();
  progress.end();
  return imported;
}
