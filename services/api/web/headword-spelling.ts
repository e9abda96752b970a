// Which entries write their headword in a spelling of their own (the source manifest's headwordSpelling),
// and which spelling of such an entry a search matched.
import type { Entry, WordSummary } from '../../shared/schemas.ts';
import { fold, normalise } from '../../../snapshot/format/text.ts';
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
  /** The other form of the entry that a form match found (a plural, a Swahili verb's stem, a class form). */
  form?: FormOfEntry;
}

type FormOfEntry = Entry['forms'][number];

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
   * The note for one result of a search for `q`. Reads the entry only where the summary cannot tell: a match
   * through another spelling (a variant, or an exact match of a spelling that is not the headword: the Standard
   * Igbo mmiri of mmilī), a form match, or a language whose lexicons differ in spelling.
   */
  noteFor(word: WordSummary, q: string, entryOf: (slug: string) => Entry | undefined): ResultNote | undefined {
    const otherSpelling = q !== '' && (word.matchType === 'variant' || (word.matchType === 'exact' && !spellsHeadword(word, q)));
    const formMatch = q !== '' && word.matchType === 'form';
    const needsEntry = otherSpelling || formMatch || this.#someSources.has(word.language);
    const entry = needsEntry ? entryOf(word.slug) : undefined;
    const spelling = this.#wholeLanguage.get(word.language) ?? (entry ? this.forEntry(entry) : undefined);
    const matched = otherSpelling ? matchedSpelling(entry, q) : undefined;
    const form = formMatch ? matchedForm(entry, q) : undefined;
    if (!spelling && !matched && !form) return undefined;
    return { ...(spelling && { spelling }), ...(matched && { matched }), ...(form && { form }) };
  }
}

/** Written as the query: an exact match of the headword itself (a verb root's hyphen aside, as the index keys it). */
function spellsHeadword(word: WordSummary, q: string): boolean {
  const key = (text: string) => normalise(text).toLowerCase().replace(/^-+\s*/, '');
  const typed = key(q);
  return key(word.exactForm) === typed || key(word.headword) === typed;
}

/**
 * The entry's variant that the search text spells (without tone marks, or through the l/r key), else the
 * search text itself: the entry was found through a spelling other than its headword's.
 */
export function matchedSpelling(entry: Entry | undefined, q: string): string {
  const query = fold(q);
  const variant = entry?.variants.find((v) => sameUnderLooseKeys(fold(v.form), query));
  return variant?.form ?? q;
}

/** The entry's other form that the search text spells without tone marks, if one does. */
export function matchedForm(entry: Entry | undefined, q: string): FormOfEntry | undefined {
  const query = fold(q);
  return entry?.forms.find((f) => fold(f.form) === query);
}
