// Which entries write their headword in a spelling of their own (the source manifest's headwordSpelling),
// and which spelling of such an entry a search matched.
import type { Entry, WordSummary } from '../../shared/schemas.ts';
import { fold } from '../../../snapshot/format/text.ts';
import { sameUnderLooseKeys } from '../../../snapshot/languages/index.ts';
import type { Snapshot } from '../../../snapshot/reader/snapshot.ts';

export interface HeadwordSpelling {
  label: string;
  description: string;
}

/** What a results page says of one result beyond its match type. */
export interface ResultNote {
  /** The entry's headword follows this spelling (e.g. Williamson's Onitsha spelling). */
  spelling?: HeadwordSpelling;
  /** The spelling the search matched, when it is not the headword (a variant, or the query's own spelling). */
  matched?: string;
}

export class HeadwordSpellings {
  readonly #bySource: ReadonlyMap<string, HeadwordSpelling>;
  /** Languages all of whose lexicons note one spelling: their results need no entry read to say so. */
  readonly #wholeLanguage: ReadonlyMap<string, HeadwordSpelling>;
  /** Languages where only some lexicons note a spelling: each result's entry tells. */
  readonly #someSources: ReadonlySet<string>;

  constructor(snapshot: Snapshot) {
    const lexicons = (snapshot.sources?.() ?? []).filter((s) => s.role === 'lexicon');
    this.#bySource = new Map(lexicons.flatMap((s) => (s.headwordSpelling ? [[s.id, s.headwordSpelling] as const] : [])));
    const whole = new Map<string, HeadwordSpelling>();
    const some = new Set<string>();
    for (const language of new Set(lexicons.map((s) => s.language))) {
      const spellings = lexicons.filter((s) => s.language === language).map((s) => s.headwordSpelling);
      const first = spellings[0];
      if (first && spellings.every((s) => s?.label === first.label)) whole.set(language, first);
      else if (spellings.some(Boolean)) some.add(language);
    }
    this.#wholeLanguage = whole;
    this.#someSources = some;
  }

  forEntry(entry: Entry): HeadwordSpelling | undefined {
    return this.#bySource.get(entry.source.id);
  }

  /**
   * The note for one result of a search for `q`. Reads the entry only where the summary cannot tell: a
   * variant match (which spelling matched) or a language whose lexicons differ in spelling.
   */
  noteFor(word: WordSummary, q: string, entryOf: (slug: string) => Entry | undefined): ResultNote | undefined {
    const needsEntry = word.matchType === 'variant' || this.#someSources.has(word.language);
    const entry = needsEntry ? entryOf(word.slug) : undefined;
    const spelling = this.#wholeLanguage.get(word.language) ?? (entry ? this.forEntry(entry) : undefined);
    const matched = word.matchType === 'variant' && q ? matchedSpelling(entry, q) : undefined;
    return spelling || matched ? { spelling, matched } : undefined;
  }
}

/**
 * The entry's variant that the search text spells (without tone marks, or through the l/r key), else the
 * search text itself: a variant match found the entry through a spelling other than its headword's.
 */
export function matchedSpelling(entry: Entry | undefined, q: string): string {
  const query = fold(q);
  const variant = entry?.variants.find((v) => sameUnderLooseKeys(fold(v.form), query));
  return variant?.form ?? q;
}
