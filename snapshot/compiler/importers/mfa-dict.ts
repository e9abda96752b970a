// Importer for Montreal Forced Aligner pronunciation dictionaries (`word<TAB>phones`).
import { readLines } from '../read/files.ts';
import type { PronunciationOutcome, SourceContext } from '../records.ts';
import { defineImporter } from './importer.ts';
import { PRONUNCIATION_OPTIONS, pronunciationRow, splitPronunciationLine } from './pronunciation-lines.ts';

/** MFA's aligner tokens (`<unk>`, `[laughter]`, `<eps>`): rows of the aligner, not words. */
const ALIGNER_TOKEN = /^[<[].*[>\]]$/;

/** MFA: phones separated by spaces (Hausa vowels with tone letters ˥ ˩ ˥˦), joined into one transcription. */
export function importMfaLine(line: string, source: SourceContext): PronunciationOutcome {
  if (line.trim() === '') return { kind: 'skip' };
  const cols = splitPronunciationLine(line);
  if (!cols) return { kind: 'rejected', reason: 'malformed line (not word<TAB>phones)' };
  if (ALIGNER_TOKEN.test(cols[0])) return { kind: 'rejected', reason: 'aligner token, not a word' };
  return pronunciationRow(source, cols[0], cols[1].replace(/ /g, ''));
}

export const mfaDict = defineImporter({
  options: PRONUNCIATION_OPTIONS,
  read(source, into) {
    for (const line of readLines(into.file)) into.pronunciation(importMfaLine(line, source));
  },
});
