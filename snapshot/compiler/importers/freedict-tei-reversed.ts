// Importer for the reversed edition of a FreeDict dictionary (eng-swh, eng-afr: English headwords, the words of the
// language as definitions or translations): each pair is staged, and decided once the other sources are
// (snapshot/compiler/reverse.ts), so that only what the forward edition and the lexicons lack counts.
import { languageRules } from '../../languages/index.ts';
import { readTextLines } from '../read/files.ts';
import type { ReverseOutcome, SourceContext } from '../records.ts';
import { freedictText, parseTeiEntries, refusedHeadword } from './freedict-tei.ts';
import type { TeiEntry } from './freedict-tei.ts';
import { NO_OPTIONS, defineImporter } from './importer.ts';
import { FREEDICT_POS } from './parts-of-speech.ts';

/**
 * One reversed entry → a pair per word of the language it gives (its first definition, eng-swh; each translation,
 * eng-afr), or a rejection: each pair is a record of the report. Pure.
 */
export function importReversedFreedictEntry(entry: TeiEntry, source: SourceContext): ReverseOutcome[] {
  const gloss = entry.orths[0] === undefined ? undefined : freedictText(entry.orths[0]);
  const words = entry.defs.length > 0 ? entry.defs.slice(0, 1) : [...new Set(entry.translations.flat())];
  if (gloss === undefined || words.length === 0) return [{ kind: 'rejected', reason: 'entry without an English headword or a definition' }];
  // A source without parts of speech (eng-afr) gives none: the pair joins the word's entry whatever its part of speech.
  const partOfSpeech = entry.pos === null ? null : FREEDICT_POS[entry.pos] || 'other';
  return words.map((word) => {
    // The Swahili side of a verb is its stem, as in the forward edition: looked up by the same citation form.
    const citation = entry.pos === 'v' ? languageRules(source.language).verbCitation?.(word) : undefined;
    const form = freedictText(citation ?? word).replace(/,+$/, '');
    const refused = refusedHeadword(form);
    if (refused) return { kind: 'rejected', reason: refused };
    return { kind: 'reverse', record: { sourceId: source.id, language: source.language, form, senses: [gloss], partOfSpeech } };
  });
}

export const freedictTeiReversed = defineImporter({
  options: NO_OPTIONS,
  read(source, into) {
    for (const entry of parseTeiEntries(readTextLines(into.file).join('\n'), into.file)) {
      for (const outcome of importReversedFreedictEntry(entry, source)) into.reverse(outcome);
    }
  },
});
