// Phase 4: treebank sentences attach to entries by lemma.
import type Database from 'better-sqlite3';

import { MAX_TREEBANK_EXAMPLES_PER_ENTRY } from './assemble.ts';
import type { ExampleRecord, SentenceRecord } from './records.ts';
import type { ReportBuilder } from './report.ts';

/**
 * Each sentence becomes an example of the entries whose exact form (case-insensitive) is one of its
 * lemmas, preferring entries of the lemma's part of speech. Sentences with an English translation go
 * first; each entry keeps at most MAX_TREEBANK_EXAMPLES_PER_ENTRY. Returns entry key → examples.
 */
export function attachSentences(db: Database.Database, sentences: readonly SentenceRecord[], report: ReportBuilder): Map<string, ExampleRecord[]> {
  const byLower = db.prepare<[string, string], { key: string; pos: string }>(
    'SELECT key, pos FROM stage.entry WHERE language = ? AND exact_lower = ? ORDER BY global_rank',
  );
  const out = new Map<string, ExampleRecord[]>();
  const ordered = [...sentences].sort((a, b) => Number(b.translation !== null) - Number(a.translation !== null));
  for (const sentence of ordered) {
    let attached = false;
    let matchedAny = false;
    const seen = new Set<string>();
    for (const { lemma, partOfSpeech } of sentence.lemmas) {
      const found = byLower.all(sentence.language, lemma);
      if (found.length === 0) continue;
      matchedAny = true;
      const samePos = found.filter((f) => f.pos === partOfSpeech);
      for (const { key } of samePos.length > 0 ? samePos : found) {
        if (seen.has(key)) continue;
        seen.add(key);
        const list = out.get(key) ?? [];
        if (list.length >= MAX_TREEBANK_EXAMPLES_PER_ENTRY) continue;
        list.push({ text: sentence.text, translation: sentence.translation, reference: sentence.id, sourceId: sentence.sourceId });
        out.set(key, list);
        attached = true;
      }
    }
    if (attached) report.imported(sentence.sourceId);
    else if (matchedAny) report.rejected(sentence.sourceId, `every matching entry already has ${MAX_TREEBANK_EXAMPLES_PER_ENTRY} treebank examples`);
    else report.rejected(sentence.sourceId, 'no lemma of the sentence is an entry');
  }
  return out;
}
