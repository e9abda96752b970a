// Homographs: entries of one language spelled exactly alike (Yoruba dá, eleven entries), numbered 1, 2, … in
// the source's order (its etymology numbers, then id), so that a page can tell them apart and name the others.
import type { Snapshot } from '../../../snapshot/reader/snapshot.ts';
import { Lru } from '../../shared/lru.ts';

export interface Homograph {
  id: number;
  slug: string;
  partOfSpeech: string;
  /** 1-based place among the entries spelled alike. */
  number: number;
}

/** Spellings remembered per worker: a results page names a few, an entry page one. */
const REMEMBERED_SPELLINGS = 2000;
/** Entries read to find a spelling's homographs: more than any spelling of the snapshot has. */
const SEARCH_LIMIT = 100;

export class Homographs {
  readonly #known = new Lru<readonly Homograph[]>(REMEMBERED_SPELLINGS);

  constructor(private readonly snapshot: Snapshot) {}

  /** Every entry of `language` spelled `exactForm`, numbered; empty when the spelling has only one entry. */
  of(language: string, exactForm: string): readonly Homograph[] {
    const key = `${language}\u0000${exactForm}`;
    let found = this.#known.get(key);
    if (found === undefined) {
      found = this.read(language, exactForm);
      this.#known.set(key, found);
    }
    return found;
  }

  /** The number of an entry among its homographs, or undefined when it has none. */
  numberOf(language: string, exactForm: string, id: number): number | undefined {
    return this.of(language, exactForm).find((h) => h.id === id)?.number;
  }

  private read(language: string, exactForm: string): readonly Homograph[] {
    const alike = this.snapshot.search({ q: exactForm, language, page: 1, limit: SEARCH_LIMIT }).items.filter((w) => w.exactForm === exactForm);
    if (alike.length < 2) return [];
    const ordered = alike
      .map((w) => ({ w, etymology: this.snapshot.entry(w.slug)?.etymologyNumber ?? Number.MAX_SAFE_INTEGER }))
      .sort((a, b) => a.etymology - b.etymology || a.w.id - b.w.id);
    return ordered.map(({ w }, i) => ({ id: w.id, slug: w.slug, partOfSpeech: w.partOfSpeech, number: i + 1 }));
  }
}
