// A language's own reading of its records' parts of speech (LanguageRules.retag), applied once every source is staged.
import type Database from 'better-sqlite3';

import { LANGUAGE_RULES } from '../languages/index.ts';
import { EnglishClasses } from './english-classes.ts';
import type { LexRecord } from './records.ts';
import { recordKey } from './records.ts';
import type { ReportBuilder } from './report.ts';

/** Re-labels the staged records a language's rules read otherwise, each noted in the report with its source. */
export function retagPartsOfSpeech(db: Database.Database, report: ReportBuilder): void {
  const rowsOf = db.prepare<[string], { seq: number; source_id: string; data: string }>('SELECT seq, source_id, data FROM stage.lex WHERE language = ?');
  const update = db.prepare('UPDATE stage.lex SET key = ?, pos = ?, data = ? WHERE seq = ?');
  db.transaction(() => {
    for (const [language, rules] of Object.entries(LANGUAGE_RULES)) {
      if (!rules.retag) continue;
      const english = new EnglishClasses(db, language);
      for (const row of rowsOf.all(language)) {
        const record = JSON.parse(row.data) as LexRecord;
        const pos = rules.retag(record, english);
        if (pos === undefined || pos === record.partOfSpeech) continue;
        report.note(row.source_id, `${record.partOfSpeech} read as ${pos} (the language's morphology and the English gloss)`);
        const retagged: LexRecord = { ...record, partOfSpeech: pos };
        update.run(recordKey(retagged), pos, JSON.stringify(retagged), row.seq);
      }
    }
  })();
}
