// Importer for ipa-dict pronunciation lists (`word<TAB>/IPA/`).
import { readLines } from '../read/files.ts';
import type { PronunciationOutcome, SourceContext } from '../records.ts';
import { defineImporter } from './importer.ts';
import { PRONUNCIATION_OPTIONS, pronunciationRow, splitPronunciationLine } from './pronunciation-lines.ts';

/** ipa-dict: `/IPA/`; the capital letter that capitalised words keep inside the IPA (`/Aɓaɗoni/`) is lowered. */
export function importIpaDictLine(line: string, source: SourceContext): PronunciationOutcome {
  if (line.trim() === '') return { kind: 'skip' };
  const cols = splitPronunciationLine(line);
  if (!cols) return { kind: 'rejected', reason: 'malformed line (not word<TAB>/IPA/)' };
  const ipa = cols[1].replace(/^\/|\/$/g, '');
  const notes: string[] = [];
  if (/[A-Z]/.test(ipa)) notes.push('ASCII capital inside the IPA lower-cased');
  return pronunciationRow(source, cols[0], ipa.toLowerCase(), notes);
}

export const ipaDictTsv = defineImporter({
  options: PRONUNCIATION_OPTIONS,
  read(source, into) {
    for (const line of readLines(into.file)) into.pronunciation(importIpaDictLine(line, source));
  },
});
