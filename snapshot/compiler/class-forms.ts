// Adjective stems found through the forms they take in agreement (Swahili nzuri, mzuri, kizuri → zuri), where the
// language's text attests them.
import type Database from 'better-sqlite3';

import { LANGUAGE_RULES } from '../languages/index.ts';
import { writtenWords } from './aligned-text.ts';
import type { Imported } from './importers/staging.ts';
import type { FormRecord, LexRecord } from './records.ts';
import type { ReportBuilder } from './report.ts';

/**
 * Class forms a stem must have in the text before any is kept: an adjective that takes agreement shows it in several
 * classes; one attested candidate is as likely a noun that happens to be spelt so (msafi "clean person" beside safi).
 */
export const MIN_ATTESTED_CLASS_FORMS = 2;

/**
 * For each language whose rules make class forms: its adjectives' candidate forms that its frequency list or aligned
 * text holds, added to the entry as forms (kind `class-form`) when at least MIN_ATTESTED_CLASS_FORMS are.
 */
export function addClassForms(db: Database.Database, imported: Imported, report: ReportBuilder): void {
  const rows = db.prepare<[string], { seq: number; source_id: string; data: string }>("SELECT seq, source_id, data FROM stage.lex WHERE language = ? AND pos = 'adjective'");
  const update = db.prepare('UPDATE stage.lex SET data = ? WHERE seq = ?');
  db.transaction(() => {
    for (const [language, { classForms }] of Object.entries(LANGUAGE_RULES)) {
      if (!classForms) continue;
      const attested = new Set<string>();
      for (const line of imported.frequency.lines) if (line.language === language) attested.add(line.form.normalize('NFC').toLowerCase());
      for (const s of imported.aligned) if (s.language === language) for (const w of writtenWords(s.text)) attested.add(w);
      for (const row of rows.all(language)) {
        const record = JSON.parse(row.data) as LexRecord;
        const found = classForms(record.exactForm.toLowerCase()).filter((f) => attested.has(f));
        if (found.length < MIN_ATTESTED_CLASS_FORMS) continue;
        const forms: FormRecord[] = [...(record.forms ?? []), ...found.filter((f) => !record.forms?.some((x) => x.form === f)).map((form) => ({ form, kind: 'class-form' as const }))];
        update.run(JSON.stringify({ ...record, forms }), row.seq);
        report.note(row.source_id, 'adjective stem: its class forms that the text attests added as forms');
      }
    }
  })();
}
