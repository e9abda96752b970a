// Sentences of line-aligned corpora (NTREX-128) become examples of the entries they hold, where the English says so.
import type Database from 'better-sqlite3';

import { languageRules } from '../languages/index.ts';
import { writtenWords } from './aligned-text.ts';
import type { AlignedText } from './aligned-text.ts';
import { holdsMeaning } from './english-meaning.ts';
import type { Reading } from './readings.ts';
import { Readings } from './readings.ts';
import type { ExampleRecord } from './records.ts';
import type { ReportBuilder } from './report.ts';
import { hasToneMarks } from './written-forms.ts';

/** Examples per entry from one corpus: enough to show the word in use; the shortest sentences are taken. */
export const MAX_ALIGNED_EXAMPLES_PER_ENTRY = 3;

/** Why a word of a sentence was not taken as an example of an entry it can be (the report counts each). */
export const EXAMPLE_REJECTIONS = {
  meaning: "the English line does not hold the entry's meaning, and the word is not written as that entry only",
  chance: 'the English line holds the entry\'s meaning no more often where the word is than elsewhere',
  full: `the entry already has ${MAX_ALIGNED_EXAMPLES_PER_ENTRY} shorter examples from this corpus`,
} as const;

/**
 * Whether a word, written as it is, can be only this entry: written with its tone marks exactly as the entry's
 * tone-marked form (Yoruba), or, in a language whose text is spelt as its lexicon (Swahili, Zulu: no tones), exactly
 * as its headword. An untoned Hausa or Igbo word is never that: the lexicon may lack the homograph the text means
 * (Hausa fara "begin" beside the lexicon's only fā̀rā "locust").
 */
function onlyReading(written: string, readings: readonly Reading[], language: string): boolean {
  if (readings.length !== 1) return false;
  const [r] = readings;
  const rules = languageRules(language);
  const same = written === r.form.normalize('NFC').toLowerCase();
  if (rules.tones) return same && hasToneMarks(written);
  return same && r.via === 'headword' && rules.textWritesTones !== false;
}

/**
 * Each sentence's words, as written, name the entries they can be (readings.ts); a sentence is an example of such
 * an entry when its English line holds the entry's meaning (english-meaning.ts: go/went, child/children), and the
 * English holds it beyond chance where the word is (AlignedText.shown), or when the word can be that entry only
 * (onlyReading). Shorter sentences first, at most MAX_ALIGNED_EXAMPLES_PER_ENTRY per entry. Returns entry key →
 * examples; every sentence is imported or rejected with its reason, and every (word, entry) left out is counted.
 */
export function attachAlignedSentences(db: Database.Database, texts: ReadonlyMap<string, AlignedText>, report: ReportBuilder): Map<string, ExampleRecord[]> {
  const out = new Map<string, ExampleRecord[]>();
  for (const [language, text] of texts) {
    const readings = new Readings(db, language, new Set(text.words()));
    const order = text.sentences.map((_, i) => i).sort((a, b) => text.sentences[a].text.length - text.sentences[b].text.length || a - b);
    for (const i of order) {
      const sentence = text.sentences[i];
      let attached = 0;
      let named = false;
      let full = false;
      const seen = new Set<string>();
      for (const word of new Set(writtenWords(sentence.text))) {
        const found = readings.of(word).filter((r) => !seen.has(r.entryKey));
        if (found.length === 0) continue;
        named = true;
        const only = onlyReading(word, found, language);
        for (const r of found) {
          seen.add(r.entryKey);
          const meanings = readings.meaningsOf(r.entryKey);
          const holds = holdsMeaning(text.englishOf(i), meanings);
          const shown = holds && text.shown(text.sentencesWritten(word), meanings).shown;
          if (!shown && !only) {
            report.exampleRejected(language, holds ? EXAMPLE_REJECTIONS.chance : EXAMPLE_REJECTIONS.meaning);
            continue;
          }
          const list = out.get(r.entryKey) ?? [];
          if (list.length >= MAX_ALIGNED_EXAMPLES_PER_ENTRY) {
            report.exampleRejected(language, EXAMPLE_REJECTIONS.full);
            full = true;
            continue;
          }
          list.push({ text: sentence.text, translation: sentence.translation, reference: sentence.reference, sourceId: sentence.sourceId });
          out.set(r.entryKey, list);
          report.exampleAttached(language);
          attached += 1;
        }
      }
      if (attached > 0) report.imported(sentence.sourceId);
      else if (full) report.rejected(sentence.sourceId, `every entry it is shown to name already has ${MAX_ALIGNED_EXAMPLES_PER_ENTRY} shorter examples from this corpus`);
      else if (named) report.rejected(sentence.sourceId, "no entry its words can be is shown by its English line");
      else report.rejected(sentence.sourceId, 'no word of the sentence can be an entry (headword, listed form, variant, inflected form)');
    }
  }
  return out;
}
