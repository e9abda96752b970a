// Phase 2: alternative-spelling records become variants of their target entries (or entries of their own).
import type Database from 'better-sqlite3';

import { pages } from './batches.ts';
import type { Progress } from './progress.ts';
import type { AltRecord } from './records.ts';
import { recordKey } from './records.ts';
import type { ReportBuilder } from './report.ts';

export function resolveAlternatives(db: Database.Database, report: ReportBuilder, progress: Progress): void {
  const targetsOf = db.prepare<[string, string], { key: string; pos: string }>(
    'SELECT DISTINCT key, pos FROM stage.lex WHERE language = ? AND exact_form = ?',
  );
  const insertVariant = db.prepare('INSERT INTO stage.variant (target_key, form, kind) VALUES (?, ?, ?)');
  const insertLex = db.prepare(
    'INSERT INTO stage.lex (key, source_id, language, exact_form, pos, etym, glossed, counted, tone_marked, data) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)',
  );
  const alts = db.prepare<[number, number], { seq: number; data: string }>('SELECT seq, data FROM stage.alt WHERE seq > ? ORDER BY seq LIMIT ?');
  const total = (db.prepare('SELECT count(*) AS n FROM stage.alt').get() as { n: number }).n;
  progress.phase('alternative spellings', total);
  db.transaction(() => {
    for (const row of pages<{ seq: number; data: string }>((after, limit) => alts.all(after?.seq ?? -1, limit))) {
      const alt = JSON.parse(row.data) as AltRecord;
      progress.tick();
      const found = alt.targets.flatMap((t) => targetsOf.all(alt.language, t));
      // Prefer targets of the same part of speech; a spelling of a noun is not a spelling of a verb.
      const samePos = found.filter((f) => f.pos === alt.partOfSpeech);
      const chosen = [...new Set((samePos.length > 0 ? samePos : found).map((f) => f.key))];
      if (chosen.length > 0) {
        for (const key of chosen) insertVariant.run(key, alt.form, alt.kind);
        report.merged(alt.sourceId, alt.kind === 'plural' ? 'plural entry merged into its singular as a form' : 'alternative spelling merged into its target as a variant');
      } else if (alt.fallback) {
        const r = alt.fallback;
        insertLex.run(recordKey(r), r.sourceId, r.language, r.exactForm, r.partOfSpeech, r.etymologyNumber, r.senses.length > 0 ? 1 : 0, r.toneMarked ? 1 : 0, JSON.stringify(r));
        report.note(alt.sourceId, alt.kind === 'plural' ? 'plural of a missing entry kept as its own entry' : 'alternative spelling of a missing entry kept as its own entry');
      } else {
        report.rejected(alt.sourceId, alt.missingTargetReason);
      }
    }
  })();
  progress.end();
}
