// A reversed dictionary (FreeDict eng-swh) counts only where it adds something to the forward one.
import type Database from 'better-sqlite3';

import { glossKey, senseKeys } from '../format/text.ts';
import type { LexRecord, ReverseRecord } from './records.ts';
import { recordKey } from './records.ts';
import type { ReportBuilder } from './report.ts';

/**
 * Each (English, Swahili) pair: merged when an entry of the word already has that gloss; added to the entry as
 * a gloss when the entry lacks it; a new entry when the word has none (the forward edition lacks the word).
 */
export function applyReversed(db: Database.Database, report: ReportBuilder): void {
  const rows = db.prepare('SELECT data FROM stage.reverse ORDER BY seq').pluck().all() as string[];
  const entriesOf = db.prepare<[string, string], { key: string; pos: string; data: string }>(
    'SELECT key, pos, data FROM stage.lex WHERE language = ? AND exact_form = ? ORDER BY seq',
  );
  const insert = db.prepare(
    'INSERT INTO stage.lex (key, source_id, language, exact_form, pos, etym, glossed, counted, tone_marked, data) VALUES (?, ?, ?, ?, ?, ?, 1, ?, 0, ?)',
  );
  db.transaction(() => {
    for (const data of rows) {
      const r = JSON.parse(data) as ReverseRecord;
      const found = entriesOf.all(r.language, r.form);
      const wanted = glossKey(r.gloss);
      const has = found.some((f) => (JSON.parse(f.data) as LexRecord).senses.some((s) => s === r.gloss || senseKeys(s).includes(wanted)));
      if (has) {
        report.merged(r.sourceId, 'same word and gloss as in the forward dictionary');
        continue;
      }
      const target = found.find((f) => f.pos === r.partOfSpeech) ?? found[0];
      const record: LexRecord = {
        sourceId: r.sourceId,
        language: r.language,
        exactForm: r.form,
        partOfSpeech: target ? (target.pos as LexRecord['partOfSpeech']) : r.partOfSpeech,
        etymologyNumber: null,
        pronunciation: null,
        senses: [r.gloss],
        examples: [],
        variants: [],
        derived: [],
        components: [],
        crossReferences: [],
        stems: [],
        // A reversed pair is not a reviewed entry (isVerified: no source here marks one).
        verified: false,
      };
      const key = target ? target.key : recordKey(record);
      // Added to an existing entry: reported here, staged uncounted; a new word is reported by identify.
      if (target) report.merged(r.sourceId, 'English gloss added to the entry of the word');
      insert.run(key, r.sourceId, r.language, r.form, record.partOfSpeech, null, target ? 0 : 1, JSON.stringify(record));
    }
  })();
}
