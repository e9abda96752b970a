// Sentences of line-aligned corpora (NTREX-128) become examples of the entries they unambiguously contain.
import type Database from 'better-sqlite3';

import type { AlignedSentenceRecord, ExampleRecord, FormRecord } from './records.ts';
import type { ReportBuilder } from './report.ts';

/** Examples per entry from one corpus: enough to show the word in use; the shortest sentences are taken. */
export const MAX_ALIGNED_EXAMPLES_PER_ENTRY = 3;
/** Words of a sentence: letters and marks, with apostrophes inside (Hausa 'yan, Igbo n'ebe). */
const WORD = /[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*/gu;

/**
 * A word of a sentence names an entry when, case aside, it is written exactly as the entry's headword, one of its
 * listed forms (the Hausa page title beside the tone-marked headword, a plural) or, folded, one of its inflected
 * forms, and no other entry of the language is written so. A word that only folds like an entry is not enough:
 * Yoruba and Igbo text often omits tone marks, and an untoned `ile` could be ilé (house) or ilẹ̀ (land).
 * Shorter sentences are attached first. Returns entry key → examples.
 */
export function attachAlignedSentences(db: Database.Database, sentences: readonly AlignedSentenceRecord[], report: ReportBuilder): Map<string, ExampleRecord[]> {
  const out = new Map<string, ExampleRecord[]>();
  const languages = [...new Set(sentences.map((s) => s.language))];
  // Written form → the one entry written so, or null when several are (ambiguous: never attached).
  const written = new Map<string, Map<string, string | null>>();
  const wordsOf = (text: string): string[] => (text.match(WORD) ?? []).map((w) => w.normalize('NFC').toLowerCase().replace(/’/g, "'"));
  for (const language of languages) {
    // Only the forms the sentences use are kept (Zulu alone has 395,624 inflected forms).
    const used = new Set(sentences.filter((s) => s.language === language).flatMap((s) => wordsOf(s.text)));
    const forms = new Map<string, string | null>();
    const add = (form: string, key: string): void => {
      const lower = form.normalize('NFC').toLowerCase();
      if (!used.has(lower)) return;
      const seen = forms.get(lower);
      forms.set(lower, seen === undefined || seen === key ? key : null);
    };
    const rows = db
      .prepare<[string], { key: string; exact_form: string; data: string }>(
        'SELECT e.key AS key, e.exact_form AS exact_form, l.data AS data FROM stage.entry e JOIN stage.lex l ON l.key = e.key WHERE e.language = ?',
      )
      .all(language);
    for (const row of rows) {
      add(row.exact_form, row.key);
      for (const f of (JSON.parse(row.data) as { forms?: FormRecord[] }).forms ?? []) add(f.form, row.key);
    }
    const inflections = db
      .prepare<[string], { key: string; entry_key: string }>('SELECT i.key AS key, i.entry_key AS entry_key FROM stage.entry_inflection i JOIN stage.entry e ON e.key = i.entry_key WHERE e.language = ?')
      .all(language);
    for (const row of inflections) add(row.key, row.entry_key);
    written.set(language, forms);
  }
  const ordered = [...sentences].sort((a, b) => a.text.length - b.text.length || a.line - b.line);
  for (const sentence of ordered) {
    const forms = written.get(sentence.language);
    let attached = false;
    let matched = false;
    const seen = new Set<string>();
    for (const word of wordsOf(sentence.text)) {
      const key = forms?.get(word);
      if (key === undefined || key === null || seen.has(key)) continue;
      seen.add(key);
      matched = true;
      const list = out.get(key) ?? [];
      if (list.length >= MAX_ALIGNED_EXAMPLES_PER_ENTRY) continue;
      list.push({ text: sentence.text, translation: sentence.translation, reference: sentence.reference, sourceId: sentence.sourceId });
      out.set(key, list);
      attached = true;
    }
    if (attached) report.imported(sentence.sourceId);
    else if (matched) report.rejected(sentence.sourceId, `every entry it names already has ${MAX_ALIGNED_EXAMPLES_PER_ENTRY} shorter examples from this corpus`);
    else report.rejected(sentence.sourceId, 'no word of the sentence names exactly one entry (headword or listed form, as written)');
  }
  return out;
}
