// Importer for line-aligned translation corpora (NTREX-128): line n of the language file translates line n of
// the English file; an optional third file names each line's document.
import { normalise } from '../../format/text.ts';
import { languageRules } from '../../languages/index.ts';
import { z } from 'zod';

import { FormatError } from '../read/errors.ts';
import { readLines, readTextLines } from '../read/files.ts';
import type { AlignedOutcome, SourceContext } from '../records.ts';
import { defineImporter } from './importer.ts';

/** Letters of other scripts left in a line after the repairs: the line is not trusted as an example. */
const FOREIGN_LETTER = /[\p{Script=Greek}\p{Script=Cyrillic}]/u;

/** Line `line` (1-based) of the language file and its English line → a sentence, or a rejection. Pure. */
export function importAlignedLine(
  line: number,
  rawText: string,
  rawTranslation: string | undefined,
  reference: string | undefined,
  source: SourceContext,
): AlignedOutcome {
  let text = rawText.replace(/\r$/, '');
  const notes: string[] = [];
  // Stand-in characters the language's text is known to carry for its letters (Yoruba ϙ for ọ), repaired.
  for (const [pattern, replacement, note] of languageRules(source.language).textRepairs ?? []) {
    if (pattern.test(text)) {
      text = text.replace(pattern, replacement);
      notes.push(note);
    }
  }
  text = normalise(text);
  const translation = normalise((rawTranslation ?? '').replace(/\r$/, ''));
  if (text === '') return { kind: 'rejected', reason: 'empty line' };
  if (translation === '') return { kind: 'rejected', reason: 'no English line aligned with it' };
  const foreign = FOREIGN_LETTER.exec(text)?.[0];
  if (foreign) return { kind: 'rejected', reason: `stand-in character from another script (U+${(foreign.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')})` };
  const document = reference?.trim();
  return {
    kind: 'sentence',
    record: { sourceId: source.id, language: source.language, line, text, translation, reference: `newstest2019 line ${line}${document ? ` (${document})` : ''}` },
    notes,
  };
}

/** Sentences attach as examples once the entries are known (snapshot/compiler/examples.ts). */
export const ntrexLines = defineImporter({
  options: z.object({
    /** The English file, line-aligned with `file`. */
    translationFile: z.string().min(1),
    /** The file naming each line's document (optional). */
    referenceFile: z.string().min(1).optional(),
  }),
  otherFiles: (source) => [source.translationFile, source.referenceFile],
  read(source, into) {
    const text = readTextLines(into.file);
    const english = readTextLines(into.otherFile(source.translationFile));
    const ids = source.referenceFile ? [...readLines(into.otherFile(source.referenceFile))] : [];
    if (text.at(-1) === '') text.pop();
    if (english.at(-1) === '') english.pop();
    if (text.length !== english.length) throw new FormatError(`${into.file}: ${text.length} lines, but its English file has ${english.length}: not line-aligned`);
    text.forEach((line, i) => into.aligned(importAlignedLine(i + 1, line, english[i], ids[i], source)));
  },
});
