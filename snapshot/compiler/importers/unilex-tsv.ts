// Importer for Unicode Unilex frequency lists (`Form<TAB>Frequency` after a header and # comments).
import { fold, normalise } from '../../format/text.ts';
import { languageRules } from '../../languages/index.ts';
import { FormatError } from '../read/errors.ts';
import { readLines } from '../read/files.ts';
import type { FrequencyOutcome, SourceContext } from '../records.ts';
import { NO_OPTIONS, defineImporter } from './importer.ts';

/**
 * Characters a form may contain after NFD: Latin letters, the marks Igbo and Yoruba write (grave, acute,
 * circumflex, macron, dot above, dot below), apostrophes and hyphens, and the language's own letters
 * (LanguageRules.letters: Hausa ɓ ɗ ƙ ƴ). Anything else in these lists is mis-encoding (`Ä`, `ã` from double-decoded
 * UTF-8) and the line is rejected.
 */
const ALLOWED = "A-Za-z0-9\\u0300\\u0301\\u0302\\u0304\\u0307\\u0323'’-";
const allowedCache = new Map<string, RegExp>();
function allowedIn(language: string): RegExp {
  let pattern = allowedCache.get(language);
  if (!pattern) {
    const own = languageRules(language).letters ?? '';
    pattern = new RegExp(`^[${own}${own.toUpperCase()}${ALLOWED}]+$`, 'u');
    allowedCache.set(language, pattern);
  }
  return pattern;
}

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
  const allowed = allowedIn(source.language);
  if (!allowed.test(decomposed)) {
    const bad = [...decomposed].find((c) => !allowed.test(c)) ?? '?';
    const code = `U+${(bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
    return { kind: 'rejected', reason: `mis-encoded or foreign character (${code})` };
  }
  const notes: string[] = [];
  // An old spelling the language's rules know (Yoruba nwọn) counts for the modern one, whose tones it does not say.
  const modern = languageRules(source.language).oldSpellings?.[fold(form)];
  if (modern !== undefined) notes.push('old orthography mapped to the modern spelling');
  return { kind: 'frequency', record: { sourceId: source.id, language: source.language, form: modern ?? form, frequency: Number(cols[1]) }, notes };
}

export const unilexTsv = defineImporter({
  options: NO_OPTIONS,
  read(source, into) {
    let lineNo = 0;
    for (const line of readLines(into.file)) into.frequency(importUnilexLine(line, ++lineNo, source, into.file));
  },
});
