// Importer for the reversed edition of a FreeDict dictionary (eng-swh: English headwords, definitions in the
// language): each pair is staged, and decided once the other sources are (snapshot/compiler/reverse.ts), so that
// only what the forward edition lacks counts.
import { languageRules } from '../../languages/index.ts';
import { readTextLines } from '../read/files.ts';
import type { ReverseOutcome, SourceContext } from '../records.ts';
import { parseTeiEntries } from './freedict-tei.ts';
import type { TeiEntry } from './freedict-tei.ts';
import { NO_OPTIONS, defineImporter } from './importer.ts';
import { FREEDICT_POS } from './parts-of-speech.ts';

/** One eng-swh entry (English headword, Swahili definition) → a reverse record, or a rejection. Pure. */
export function importReversedFreedictEntry(entry: TeiEntry, source: SourceContext): ReverseOutcome {
  const gloss = entry.orths[0];
  const form = entry.defs[0];
  if (gloss === undefined || form === undefined) return { kind: 'rejected', reason: 'entry without an English headword or a definition' };
  const partOfSpeech = (entry.pos && FREEDICT_POS[entry.pos]) || 'other';
  // The Swahili side of a verb is its stem, as in the forward edition: looked up by the same citation form.
  const citation = entry.pos === 'v' ? languageRules(source.language).verbCitation?.(form) : undefined;
  return { kind: 'reverse', record: { sourceId: source.id, language: source.language, form: citation ?? form, gloss, partOfSpeech } };
}

export const freedictTeiReversed = defineImporter({
  options: NO_OPTIONS,
  read(source, into) {
    for (const entry of parseTeiEntries(readTextLines(into.file).join('\n'), into.file)) into.reverse(importReversedFreedictEntry(entry, source));
  },
});
