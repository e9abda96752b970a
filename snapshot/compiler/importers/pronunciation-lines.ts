// What the pronunciation list formats share (wikipron-tsv, mfa-dict, ipa-dict-tsv): `word<TAB>transcription`
// lines, each → one pronunciation row or a rejection, and the manifest's `fallback` option.
import { z } from 'zod';

import { normalise } from '../../format/text.ts';
import type { PronunciationOutcome, SourceContext } from '../records.ts';

export const PRONUNCIATION_OPTIONS = z.object({
  /** A source used only for words that no other pronunciation source of the language has. */
  fallback: z.boolean().default(false),
});

/** The word and the transcription of a line, normalised; null when the line has no tab. */
export function splitPronunciationLine(line: string): [string, string] | null {
  const text = line.replace(/\r$/, '');
  const tab = text.indexOf('\t');
  if (tab < 0) return null;
  return [normalise(text.slice(0, tab)), normalise(text.slice(tab + 1))];
}

/** The row of a line, or its rejection when either side is empty. */
export function pronunciationRow(source: SourceContext, word: string, ipa: string, notes: string[] = []): PronunciationOutcome {
  if (word === '' || ipa === '') return { kind: 'rejected', reason: 'malformed line (empty word or transcription)' };
  return { kind: 'pronunciation', record: { sourceId: source.id, language: source.language, word, ipa }, notes };
}
