// Treebank sentences attach to entries by lemma, where the token's gloss or the sentence's English shows the entry.
import type Database from 'better-sqlite3';

import { MAX_TREEBANK_EXAMPLES_PER_ENTRY } from './assemble.ts';
import { QUESTION, englishBases, holdsMeaning, meaningsOf } from './english-meaning.ts';
import type { ExampleRecord, LexRecord, SentenceRecord } from './records.ts';
import type { ReportBuilder } from './report.ts';

/** Why a treebank token was not taken as an example of an entry its lemma names (the report counts each). */
export const TREEBANK_REJECTIONS = {
  gloss: "the token's English gloss is not one of the entry's meanings",
  meaning: "the sentence's English does not hold the entry's meaning, and its lemma names more than one entry",
  full: `the entry already has ${MAX_TREEBANK_EXAMPLES_PER_ENTRY} treebank examples`,
} as const;

/** A token's gloss names the word, not the sentence: an interrogative's gloss "who" is its "who?" (QUESTION). */
function glossBases(gloss: string): Set<string> {
  return englishBases(gloss).add(QUESTION);
}

/**
 * Each sentence becomes an example of the entries whose exact form (case-insensitive) is one of its lemmas,
 * preferring entries of the lemma's part of speech, where the token's English gloss (Gloss=) is one of the entry's
 * meanings: the lemma ìwọ́ glossed "you" is not ìwọ́ "umbilical cord". A token without a gloss needs the sentence's
 * English to hold the meaning, or to name one entry only. Sentences with an English translation go first; each
 * entry keeps at most MAX_TREEBANK_EXAMPLES_PER_ENTRY. Returns entry key → examples.
 */
export function attachSentences(db: Database.Database, sentences: readonly SentenceRecord[], report: ReportBuilder): Map<string, ExampleRecord[]> {
  const byLower = db.prepare<[string, string], { key: string; pos: string }>(
    'SELECT key, pos FROM stage.entry WHERE language = ? AND exact_lower = ? ORDER BY global_rank',
  );
  const senses = db.prepare<[string], { data: string }>('SELECT data FROM stage.lex WHERE key = ?');
  const meanings = new Map<string, string[][]>();
  const meaningsOfEntry = (key: string): string[][] => {
    let m = meanings.get(key);
    if (!m) {
      m = meaningsOf(senses.all(key).flatMap((r) => (JSON.parse(r.data) as LexRecord).senses));
      meanings.set(key, m);
    }
    return m;
  };
  const out = new Map<string, ExampleRecord[]>();
  const ordered = [...sentences].sort((a, b) => Number(b.translation !== null) - Number(a.translation !== null));
  for (const sentence of ordered) {
    let attached = false;
    let matchedAny = false;
    const seen = new Set<string>();
    const english = sentence.translation === null ? null : englishBases(sentence.translation);
    for (const { lemma, partOfSpeech, gloss } of sentence.lemmas) {
      const found = byLower.all(sentence.language, lemma);
      if (found.length === 0) continue;
      matchedAny = true;
      const samePos = found.filter((f) => f.pos === partOfSpeech);
      const candidates = samePos.length > 0 ? samePos : found;
      for (const { key } of candidates) {
        if (seen.has(key)) continue;
        seen.add(key);
        const m = meaningsOfEntry(key);
        const shown = gloss !== undefined ? holdsMeaning(glossBases(gloss), m) : (english !== null && holdsMeaning(english, m)) || (found.length === 1 && samePos.length === 1);
        if (!shown) {
          report.exampleRejected(sentence.language, gloss !== undefined ? TREEBANK_REJECTIONS.gloss : TREEBANK_REJECTIONS.meaning);
          continue;
        }
        const list = out.get(key) ?? [];
        if (list.length >= MAX_TREEBANK_EXAMPLES_PER_ENTRY) {
          report.exampleRejected(sentence.language, TREEBANK_REJECTIONS.full);
          continue;
        }
        list.push({ text: sentence.text, translation: sentence.translation, reference: sentence.id, sourceId: sentence.sourceId });
        out.set(key, list);
        report.exampleAttached(sentence.language);
        attached = true;
      }
    }
    if (attached) report.imported(sentence.sourceId);
    else if (matchedAny) report.rejected(sentence.sourceId, 'no lemma of the sentence names an entry its gloss or English shows (or every one already has its examples)');
    else report.rejected(sentence.sourceId, 'no lemma of the sentence is an entry');
  }
  return out;
}
