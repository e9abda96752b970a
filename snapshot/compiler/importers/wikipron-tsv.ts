// Importer for WikiPron pronunciation lists (`word<TAB>IPA segments`).
import { readLines } from '../read/files.ts';
import type { PronunciationOutcome, SourceContext } from '../records.ts';
import { defineImporter } from './importer.ts';
import { PRONUNCIATION_OPTIONS, pronunciationRow, splitPronunciationLine } from './pronunciation-lines.ts';

/** WikiPron: IPA segments separated by spaces, joined here into one transcription (`k à ɽ éː` → `kàɽéː`). */
export function importWikipronLine(line: string, source: SourceContext): PronunciationOutcome {
  if (line.trim() === '') return { kind: 'skip' };
  const cols = splitPronunciationLine(line);
  if (!cols) return { kind: 'rejected', reason: 'malformed line (not word<TAB>IPA)' };
  return pronunciationRow(source, cols[0], cols[1].replace(/ /g, ''));
}

export const wikipronTsv = defineImporter({
  options: PRONUNCIATION_OPTIONS,
  read(source, into) {
    for (const line of readLines(into.file)) into.pronunciation(importWikipronLine(line, source));
  },
});
