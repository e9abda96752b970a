// Senses that count only where they add something to the entries of their word: a reversed dictionary's pairs
// (FreeDict eng-swh, eng-afr), and a translation list without parts of speech (FreeDict afr-eng).
import type Database from 'better-sqlite3';

import { glossKey, senseKeys } from '../format/text.ts';
import type { PartOfSpeech } from '../../services/shared/vocabulary.ts';
import type { LexRecord, ReverseRecord } from './records.ts';
import { recordKey } from './records.ts';
import type { ReportBuilder } from './report.ts';

interface Found {
  key: string;
  pos: string;
  senses: string[];
}

/** Why a record's senses join no entry (the report counts each). */
export const REVERSE_REJECTIONS = {
  unplaced:
    'the word has entries of several parts of speech, the source gives none, and no sense it shares with one of them says which: its senses cannot be placed',
} as const;

/** Whether an entry's senses already say `sense` (the same text, or the same gloss key among theirs). */
function says(senses: readonly string[], sense: string): boolean {
  const wanted = glossKey(sense);
  return senses.some((s) => s === sense || senseKeys(s).includes(wanted));
}

/**
 * The entry the new senses join: the one of the record's part of speech; for a source without parts of speech,
 * the word's one entry, or the one entry that shares a sense with the record; none when the word has no entry
 * (a new one is made), `unplaced` when it has several and nothing tells which.
 */
function targetOf(r: ReverseRecord, found: readonly Found[]): Found | null | 'unplaced' {
  if (found.length === 0) return null;
  if (r.partOfSpeech !== null) return found.find((f) => f.pos === r.partOfSpeech) ?? found[0];
  const keys = new Set(found.map((f) => f.key));
  if (keys.size === 1) return found[0];
  const sharing = new Set(found.filter((f) => r.senses.some((s) => says(f.senses, s))).map((f) => f.key));
  return sharing.size === 1 ? (found.find((f) => sharing.has(f.key)) ?? 'unplaced') : 'unplaced';
}

/**
 * Each record: merged when the word's entries (under its form, else its other form) already say all its senses;
 * its other senses added to the word's entry (targetOf) when it has one; a new entry when the word has none (the
 * forward edition or the lexicons lack the word: under its other form where it has one, part of speech `other`
 * where the source gives none); rejected when they cannot be placed.
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
      const entriesNamed = (form: string): Found[] =>
        entriesOf.all(r.language, form).map((f) => ({ key: f.key, pos: f.pos, senses: (JSON.parse(f.data) as LexRecord).senses }));
      let form = r.form;
      let found = entriesNamed(form);
      if (found.length === 0 && r.otherForm !== undefined) {
        form = r.otherForm;
        found = entriesNamed(form);
      }
      const senses = r.senses.filter((s) => !found.some((f) => says(f.senses, s)));
      if (senses.length === 0) {
        report.merged(r.sourceId, 'same word and gloss as in the forward dictionary or the lexicon');
        continue;
      }
      const target = targetOf(r, found);
      if (target === 'unplaced') {
        report.rejected(r.sourceId, REVERSE_REJECTIONS.unplaced);
        continue;
      }
      const record: LexRecord = {
        sourceId: r.sourceId,
        language: r.language,
        exactForm: form,
        partOfSpeech: target ? (target.pos as PartOfSpeech) : (r.partOfSpeech ?? 'other'),
        etymologyNumber: null,
        pronunciation: null,
        senses,
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
      insert.run(key, r.sourceId, r.language, form, record.partOfSpeech, null, target ? 0 : 1, JSON.stringify(record));
    }
  })();
}
