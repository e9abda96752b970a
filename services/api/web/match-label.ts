// How a search result matched, in words that are true of that result.
import type { WordSummary } from '../../shared/schemas.ts';
import { fold } from '../../../snapshot/format/text.ts';
import { languageRules } from '../../../snapshot/languages/index.ts';
import { MATCH_LABELS } from './components.ts';

/**
 * The label of a result. A prefix match is any word of the form starting with the search ("isi egō" for
 * "ego"), so "starts with your search" is said only when the whole form does; otherwise the form contains it.
 * The language searched through the l/r key compares that way too (mmilī ọcha starts with "mmiri").
 */
export function matchLabel(word: WordSummary, q: string): string {
  if (word.matchType !== 'prefix') return MATCH_LABELS[word.matchType];
  const form = fold(word.exactForm);
  const query = fold(q);
  const { looseKey } = languageRules(word.language);
  const starts =
    form.startsWith(query) ||
    fold(word.headword).startsWith(query) ||
    (looseKey !== undefined && looseKey(form).startsWith(looseKey(query)));
  return starts ? MATCH_LABELS.prefix : 'contains your search';
}
