// Which entries may be a word of the day: words fit for a classroom that carry a meaning of their own. The
// schedule draws only from these (schedule.ts); the test that walks the served schedule applies the same rules.
import { fold } from '../format/text.ts';

/** What the rules read of an entry (a full entry satisfies it). */
export interface ClassroomCandidate {
  language: string;
  headword: string;
  partOfSpeech: string;
  glosses: readonly string[];
}

/**
 * The sources' own usage labels that put an entry out of a classroom, found inside a gloss's parenthesised
 * label, e.g. Wiktionary's "(vulgar) have sex", "(derogatory, slang) idiot" or "(slang, drugs) methamphetamine".
 */
const UNFIT_LABEL = /\(([^)]*\b)?(vulgar|vulgarism|offensive|derogatory|pejorative|slur|ethnic slur|obscene|profane|profanity|swear ?word|sexual|taboo|drugs?)\b/i;

/**
 * Words in a gloss that mark it sexual, vulgar or anatomical below the waist, where the source gives no label
 * (Igbo ọtù "vulva; vagina", Yoruba okó "penis", Oromo shikee "fart"). Whole words only: "sextant" and "essex" are not matched.
 */
const UNFIT_WORDS =
  /\b(fuck\w*|cunt|shit\w*|arse|asshole|bitch|bastard|whore\w*|harlot|prostitut\w*|penis|vagina\w*|vulva|clitoris|testicles?|scrotum|foreskin|genitals?|genitalia|semen|sperm|erection|anus|rectum|buttocks?|fart\w*|sex|sexual\w*|intercourse|copulat\w*|masturbat\w*|orgasm\w*|fornicat\w*|nigger|kaffir)\b/i;

/**
 * A short reviewed list per language (folded headwords) for what the labels and gloss words miss: words a
 * speaker knows as vulgar or a slur in everyday use whatever the dictionary's first sense says (Afrikaans naai
 * "sew", doos "box", gat "hole"), and slurs the source glosses without a label.
 */
export const NOT_FOR_CLASSROOM: Readonly<Record<string, readonly string[]>> = {
  af: ['naai', 'doos', 'gat', 'kak', 'fok', 'poes', 'piel', 'kont', 'hoer', 'moer', 'bliksem', 'kaffer', 'hotnot', 'koelie'],
  zu: ['likula', 'ikula', 'amakula', 'ikhafula', 'isifebe', 'umthondo', 'ubolo', 'inquza', 'umnqundu'],
  xh: ['likula', 'ikula', 'amakula', 'ikhafula', 'isifebe', 'umthondo', 'ubolo', 'inquza', 'umnqundu'],
  // busoka: "going about with several girlfriends".
  ss: ['likula', 'likhafula', 'busoka'],
};

const REVIEWED: ReadonlyMap<string, ReadonlySet<string>> = new Map(Object.entries(NOT_FOR_CLASSROOM).map(([language, words]) => [language, new Set(words.map(fold))]));

/**
 * A gloss that names no meaning of its own: a pointer to another entry or phrase ("used in", "see ...",
 * "plural of ..."), or the name of a letter of the alphabet.
 */
const NO_MEANING =
  /^\s*(\([^)]*\)\s*)?(used in\b|see\b|cf\.|compare\b|alternative (form|spelling) of\b|(obsolete |archaic |nonstandard )?(spelling|form|plural|misspelling|abbreviation|initialism|contraction) of\b|(the )?name of the .*\bletter\b|.*\bletter of the .*\balphabet\b|the letter\b)/i;

/** Parts of speech that are not words a class would learn on their own. */
const NOT_WORDS: ReadonlySet<string> = new Set(['letter', 'affix', 'abbreviation']);

/** A headword that is a word: two or more letters, starting and ending with one (no affix hyphen, no stray mark). */
const WORD_SHAPE = /^\p{L}[\p{L}\p{M}'’ -]*\p{L}\p{M}*$/u;

/** Why an entry may not be a word of the day, or null when it may. */
export function classroomUnfitReason(entry: ClassroomCandidate): string | null {
  if (NOT_WORDS.has(entry.partOfSpeech)) return `part of speech ${entry.partOfSpeech}`;
  if (!WORD_SHAPE.test(entry.headword)) return 'headword is not a word (a letter, an affix or a stray mark)';
  if (REVIEWED.get(entry.language)?.has(fold(entry.headword))) return 'on the reviewed list';
  for (const gloss of entry.glosses) {
    if (UNFIT_LABEL.test(gloss)) return `labelled: ${gloss}`;
    if (UNFIT_WORDS.test(gloss)) return `gloss: ${gloss}`;
  }
  if (!entry.glosses.some((g) => !NO_MEANING.test(g))) return 'no gloss with a meaning of its own';
  return null;
}

export function fitForClassroom(entry: ClassroomCandidate): boolean {
  return classroomUnfitReason(entry) === null;
}
