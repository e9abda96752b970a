// Importer for Unicode Unilex frequency lists (`Form<TAB>Frequency` after a header and # comments).
import { fold, normalise } from '../../format/text.ts';
import { languageRules } from '../../languages/index.ts';
import { FormatError } from '../read/errors.ts';
import { readLines } from '../read/files.ts';
import type { FrequencyOutcome, SourceContext } from '../records.ts';
import { NO_OPTIONS, defineImporter } from './importer.ts';

/**
 * Letters a form may contain after NFD: Latin letters, the marks Igbo and Yoruba write (grave, acute,
 * circumflex, macron, dot above, dot below), apostrophes and hyphens. Anything else in these lists is
 * mis-encoding (`Ä`, `ã` from double-decoded UTF-8) and the line is rejected.
 */
const ALLOWED = /^[A-Za-z0-9\u0300\u0301\u0302\u0304\u0307\u0323'’-]+$/u;

/** One line → a frequency record, a rejection, or nothing (header, comment, blank). Pure. */
export function importUnilexLine(line: string, lineNo: number, source: SourceContext, file = 'input'): FrequencyOutcome {
  const text = line.replace(/\r$/, '');
  if (text.trim() === '' || text.startsWith('#')) return { kind: 'skip' };
  if (lineNo === 1) {
    if (!/^Form\tFrequency$/.test(text)) throw new FormatError(`${file}:1: not a Unilex frequency list (header "Form<TAB>Frequency" missing)`);
    return { kind: 'skip' };
  }
  const cols = text.split('\t');
  if (cols.length !== 2 || !/^\d+$/.test(cols[1].trim())) return { kind: 'rejected', reason: 'malformed line (not Form<TAB>Frequency)' };
  const form = normalise(cols[0]);
  const decomposed = form.normalize('NFD');
  if (!ALLOWED.test(decomposed)) {
    const bad = [...decomposed].find((c) => !ALLOWED.test(c)) ?? '?';
    const code = `U+${(bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
    return { kind: 'rejected', reason: `mis-encoded or foreign character (${code})` };
  }
  const folded = fold(form);
  const notes: string[] = [];
  // An old spelling the language's rules know (Yoruba nwọn) ranks the modern one.
  const modern = languageRules(source.language).oldSpellings?.[folded];
  if (modern !== undefined) notes.push('old orthography mapped to the modern spelling');
  const key = modern ?? folded;
  return { kind: 'frequency', record: { sourceId: source.id, language: source.language, key, frequency: Number(cols[1]) }, notes };
}

export const unilexTsv = defineImporter({
  options: NO_OPTIONS,
  read(source, into) {
    let lineNo = 0;
    for (const line of readLines(into.file)) into.frequency(importUnilexLine(line, ++lineNo, source, into.file));
  },
});
