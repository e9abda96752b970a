// What a language's module may add to the build and the search (snapshot/languages/<code>.ts). Every field is
// optional: a language without a module, or without a field, gets the defaults (DEFAULT_RULES).

import type { PartOfSpeech } from '../../services/shared/vocabulary.ts';
import type { EnglishClasses } from '../compiler/english-classes.ts';
import type { LexRecord } from '../compiler/records.ts';

/** Tone levels as the pronunciation step compares them: high, mid, low, falling, rising. */
export type Tone = 'H' | 'M' | 'L' | 'F' | 'R';

/**
 * How a spelling writes tone, for a language whose dictionary forms carry it: the tone of a vowel without a mark,
 * and of each combining mark (by name). Pronunciations whose IPA tones agree with the entry's tone-marked form
 * are shown first (snapshot/compiler/pronunciations.ts).
 */
export interface ToneOrthography {
  unmarked: Tone;
  marks: Partial<Record<'grave' | 'acute' | 'circumflex' | 'caron' | 'macron', Tone>>;
}

/** One place where a lexicon's own spelling and the standard spelling differ regularly (on folded forms). */
export interface SpellingRule {
  name: string;
  /** The places in a lexicon form, and in a standard one. */
  lexicon: RegExp;
  standard: RegExp;
  /** The text at such a place in each spelling. */
  from: string;
  to: string;
}

/**
 * A lexicon written in a spelling of its own (a dialect's, a dictionary's): standard spellings of its headwords
 * are derived by `rules` and kept where the language's standard text attests them (the aligned sentences and the
 * frequency list of the language), as `standard-spelling` variants (snapshot/compiler/standard-spellings.ts).
 */
export interface StandardSpellings {
  /** The standard's name, for notes and the build's log ("Standard Igbo"). */
  name: string;
  rules: readonly SpellingRule[];
  /** The note a derived variant carries: the rules that made it, and where it is attested. */
  note(rules: readonly string[], attestedIn: string): string;
}

export interface LanguageRules {
  /**
   * Letters that are not a base letter plus combining marks, folded to a base letter for search (services'
   * `fold`). Every language's apply to all text: a query is folded before its language is known.
   */
  foldLetters?: Readonly<Record<string, string>>;
  /** Letter sequences folded to others after apostrophes are unified (again for all text, as foldLetters). */
  foldSequences?: Readonly<Record<string, string>>;
  /**
   * A second search key of the language's headwords and variants, from the folded form: stored for its entries,
   * computed from every query, and matched as a variant (below exact and folded matches).
   */
  looseKey?(folded: string): string;
  /** How the language writes tone, where its dictionary forms carry it. */
  tones?: ToneOrthography;
  /** Old spellings still common in web text (folded), mapped to the modern spelling's folded key in frequency lists. */
  oldSpellings?: Readonly<Record<string, string>>;
  /** Stand-in characters that the language's text corpora carry for its letters: [pattern, replacement, note]. */
  textRepairs?: readonly (readonly [RegExp, string, string])[];
  standardSpellings?: StandardSpellings;
  /**
   * Whether the language's text, where it writes a letter mark or a special letter at all (Yoruba underdots, Hausa
   * hooked letters), writes the word's own: a sentence's `ọjọ` is then not òjò. Igbo's lexicon spells its
   * underdots differently from Standard text (ụnò ~ ụlọ), so Igbo compares letters folded.
   */
  trustsWrittenLetters?: boolean;
  /**
   * False where the language's text is written without tones while its lexicon marks them (Standard Igbo; Williamson
   * leaves high tones unmarked): a form without a tone mark then has no exact key, since an untoned query written
   * like it (mba) means any of the homographs that fold alike (mba "scolding", mbà "nation"), and the frequency
   * the text credits them ranks them.
   */
  textWritesTones?: boolean;
  /**
   * The part of speech of a Wiktionary export's block (its header as the export names it, and its glosses) where
   * the language reads it otherwise than the shared table (importers/parts-of-speech.ts); undefined: the table's.
   */
  wiktionaryPartOfSpeech?(pos: string, glosses: readonly string[]): PartOfSpeech | undefined;
  /**
   * A better part of speech for a staged record, where the language's morphology shows the source's to be wrong
   * (Malagasy verbs labelled nouns), weighed against how the other lexicons use its English gloss; undefined: keep it.
   */
  retag?(record: LexRecord, english: EnglishClasses): PartOfSpeech | undefined;
  /**
   * The form a verb is looked up by, from the stem a lexicon gives (Swahili la → kula); the stem stays a searchable
   * form of the entry.
   */
  verbCitation?(stem: string): string;
  /**
   * The forms an adjective stem takes in agreement (Swahili zuri → nzuri, mzuri, kizuri …): candidates, of which the
   * build keeps those the language's text attests (snapshot/compiler/class-forms.ts).
   */
  classForms?(stem: string): string[];
  /** Letters of the language beyond the Latin alphabet and its combining marks, lower case (Hausa ɓ ɗ ƙ ƴ). */
  letters?: string;
  /**
   * The readings of one word as an inflected form of the language (subject, tense and object markers, verb
   * extensions, noun-class and plural prefixes or suffixes), from its folded form and as written (lower case, NFC,
   * tones kept), asked by the search at query time: candidates only, each kept where the lexicon has its headword
   * with the right part of speech (matchType `inflected`).
   */
  analyse?(folded: string, written: string): readonly Analysis[];
}

/**
 * One reading of a typed word as an inflected form: the headword it may inflect (folded), the parts of speech that
 * headword must have, and what was taken off it. The search accepts a reading only where such an entry exists
 * (snapshot/reader/inflected.ts), so a rule proposes and the lexicon disposes.
 */
export interface Analysis {
  /** The folded headword the form would inflect (kusoma, umuntu, boek). */
  lemma: string;
  /** The parts of speech its entry may have: a verb for verb morphology, a noun for a plural. */
  partsOfSpeech: readonly PartOfSpeech[];
  /**
   * Where set, the entry's written form (exactForm) must pass it too: an Igbo verb root is written with its hyphen
   * (-nwe), a Yoruba word read from text that writes underdots and tones must have those letters (ńṣe: ṣe, not se).
   */
  accepts?(exactForm: string): boolean;
  /**
   * The headword as the text writes its letters (underdots kept, tones aside), where the text writes them: the
   * entries found are ordered by how many letters they differ in (Igbo gụrụ: -gụ "count" before -gù "embrace").
   */
  written?: string;
  /** The parts taken off, in words (`a- (she) -na- (present) soma`), shown with the entry. */
  reading: string;
  /**
   * How many parts were taken off or changed: the search keeps the readings with the fewest that find an entry, so a
   * form is read as the nearest word the lexicon holds (kupikia "cook for" is not read as kupika when it is an entry).
   */
  parts: number;
}

/** A language with no rules of its own. */
export const DEFAULT_RULES: LanguageRules = Object.freeze({});
