// The 100 commonest Standard Igbo words (test/fixtures/standard-igbo-common.json) measured against a snapshot: how
// many of those the lexicon holds find their Onitsha entry first.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { z } from 'zod';

import type { Snapshot } from '../../snapshot/reader/snapshot.ts';
import { FIXTURE_DIR } from './everyday-words.ts';

export const STANDARD_IGBO_FIXTURE = path.join(FIXTURE_DIR, '..', 'standard-igbo-common.json');
export const STANDARD_IGBO_LANGUAGE = 'ig';

const WordSchema = z.object({
  word: z.string(),
  meaning: z.string(),
  ntrex: z.number().int(),
  unilex: z.number().int(),
  expect: z.array(z.object({ headword: z.string() })).optional(),
  notHeld: z.string().optional(),
});
const FixtureSchema = z.object({ note: z.string(), words: z.array(WordSchema) });
export type CommonWord = z.infer<typeof WordSchema>;

export interface CommonWordsResult {
  held: number;
  first: number;
  failures: string[];
  notHeld: CommonWord[];
}

export function loadCommonWords(file = STANDARD_IGBO_FIXTURE): CommonWord[] {
  return FixtureSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).words;
}

/** A held word passes when the first Igbo result is one of the entries it names. */
export function evaluateCommonWords(snapshot: Snapshot, words: readonly CommonWord[]): CommonWordsResult {
  const result: CommonWordsResult = { held: 0, first: 0, failures: [], notHeld: words.filter((w) => !w.expect) };
  for (const w of words) {
    if (!w.expect) continue;
    result.held += 1;
    const items = snapshot.search({ q: w.word, language: STANDARD_IGBO_LANGUAGE, page: 1, limit: 3 }).items;
    const wanted = new Set(w.expect.map((e) => e.headword.normalize('NFC')));
    if (items[0] && wanted.has(items[0].exactForm.normalize('NFC'))) result.first += 1;
    else result.failures.push(`${w.word} (${w.meaning}): expected ${[...wanted].join(' | ')}; got ${items.map((i) => `${i.exactForm} (${i.matchType}) ${i.glosses[0] ?? ''}`.slice(0, 60)).join(' · ') || 'nothing'}`);
  }
  return result;
}
