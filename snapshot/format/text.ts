// Text normalisation and search folding, written once and used by the snapshot build and the reader: the keys
// the snapshot stores are made here, and a query's are made the same way (policy: docs/normalisation.md).
import { foldContributions } from '../languages/index.ts';

/** Combining grave/acute/macron etc.: the block U+0300–U+036F (tones, underdots, dots above, tildes). */
const COMBINING_MARKS = /[\u0300-\u036f]/g;
/** Zero-width characters that arrive from copy-paste and web scraping and carry no meaning here. */
const INVISIBLES = /[\u200b\u200c\u200d\u2060\ufeff\u00ad]/g;
/** Printable ASCII without leading, trailing or doubled spaces: already normal, nothing to compose. */
const PLAIN_ASCII = /^(?:[\x21-\x7e]+(?: [\x21-\x7e]+)*)?$/;
/** Any run of Unicode whitespace, including no-break spaces. */
const WHITESPACE_RUN = /\s+/gu;
/**
 * Letters that are not base+mark pairs, mapped to their base letter for search: a few Latin letters here, and
 * the letters each language's module folds (snapshot/languages/: Igbo ŋ, Hausa's hooked letters), all applied to
 * every text, because a query is folded before its language is known and one index serves every language.
 */
const FOLD_LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss',
  ø: 'o',
  đ: 'd',
  ł: 'l',
  ı: 'i',
  ...foldContributions().letters,
};
const FOLD_LETTER_PATTERN = new RegExp(`[${Object.keys(FOLD_LETTERS).join('')}]`, 'gu');
/**
 * Typographic apostrophes and quotes folded to ASCII so `n’` and `n'` meet; with them the half rings of
 * Wiktionary's Ge'ez romanisations (ʾ ʿ).
 */
const APOSTROPHES = /[\u2018\u2019\u02bc\u02bb\u02be\u02bf\u0060\u00b4]/g;
/** Letter sequences the languages fold after apostrophes are unified (Hausa's 'y for ƴ). */
const FOLD_SEQUENCES: Readonly<Record<string, string>> = foldContributions().sequences;
const FOLD_SEQUENCE_PATTERN = new RegExp(Object.keys(FOLD_SEQUENCES).map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|') || '(?!)', 'g');
/** Wiktionary's length marks (ː ˑ) carry no letter. */
const LENGTH_MARKS = /[\u02d0\u02d1]/g;

/**
 * The build's normalisation, applied to every form and text on import: NFC (which also puts combining
 * marks in canonical order), U+0340/U+0341 as U+0300/U+0301, U+0329 (vertical line below) as the
 * underdot U+0323, invisibles removed, whitespace trimmed and
 * collapsed. Tone marks, underdots and case are kept: this is the exact form we serve.
 */
export function normalise(text: string): string {
  // Fast path for the most common text (English glosses, plain forms): printable ASCII, single spaces.
  if (PLAIN_ASCII.test(text)) return text;
  return text
    .replace(/\u0340/g, '\u0300')
    .replace(/\u0341/g, '\u0301')
    // Yoruba typesetting sometimes writes the underdot as a vertical line below (e̩ for ẹ).
    .replace(/\u0329/g, '\u0323')
    .replace(INVISIBLES, '')
    .normalize('NFC')
    .replace(WHITESPACE_RUN, ' ')
    .trim();
}

/** After every key that starts with a letter: a form without one (a stray mark, a number) ends the browse order. */
export const BROWSE_LAST = '\u{10FFFF}';
const FIRST_LETTER = /\p{L}/u;

/**
 * The browse order's key of a folded form: the form from its first letter on, so that a headword written with
 * a bracketed part or a leading mark ("(agụū) -gụ") is listed under its first letter, and nothing that is not
 * a word opens a list; a form without a letter goes after every word (BROWSE_LAST). The letter index of a
 * language is the first character of these keys.
 */
export function browseKey(folded: string): string {
  const start = folded.search(FIRST_LETTER);
  return start < 0 ? BROWSE_LAST + folded : folded.slice(start);
}

/**
 * The search key of a form: tones, underdots, macrons and every other combining mark removed (so the
 * syllabic nasals ń ǹ ḿ m̀ become n/m), lower-cased, apostrophes unified, and the leading hyphen of an
 * Igbo verb root (`-tu afà`) dropped. Never shown to users.
 */
export function fold(text: string): string {
  if (PLAIN_ASCII.test(text)) return text.toLowerCase().replace(/^-+\s*/, '').replace(/`/g, "'").replace(FOLD_SEQUENCE_PATTERN, (m) => FOLD_SEQUENCES[m]).trim();
  const stripped = normalise(text)
    .toLowerCase()
    .normalize('NFD')
    .replace(COMBINING_MARKS, '')
    .replace(FOLD_LETTER_PATTERN, (c) => FOLD_LETTERS[c] ?? c)
    .replace(APOSTROPHES, "'")
    .replace(FOLD_SEQUENCE_PATTERN, (m) => FOLD_SEQUENCES[m])
    .replace(LENGTH_MARKS, '')
    .normalize('NFC');
  return stripped.replace(/^-+\s*/, '').trim();
}

/** True when the form has any tone mark, underdot or other diacritic (after normalisation). */
export function hasDiacritics(text: string): boolean {
  return /[\u0300-\u036f]/.test(text.normalize('NFD'));
}

/**
 * Words of a search text for full-text matching: runs of letters, marks and digits. Everything else
 * (quotes, stars, parentheses, NUL, operators) separates words, so query syntax can never reach FTS5.
 */
export function searchTokens(text: string): string[] {
  return text.match(/[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu) ?? [];
}

/**
 * The combining marks that the gloss index's tokenizer (unicode61, remove_diacritics 2) counts as diacritics:
 * inside a word they continue it and are removed, so "ọ̀rọ̀" (NFC keeps U+0300 after ọ) is the one term
 * "oro" there. This is SQLite's own list (sqlite3Fts5UnicodeIsdiacritic), not the whole U+0300–U+036F
 * block: any other mark ends a word.
 */
const GLOSS_DIACRITICS = '\u0300-\u0304\u0306-\u030c\u030f\u0311\u031b\u0323-\u0328\u032d\u032e\u0330\u0331';
/**
 * Letters and digits to V8 that SQLite's older Unicode tables class as spacing marks, so separators there:
 * the New Tai Lue vowel signs and two Vedic signs. A word holding one would be quoted as a phrase, which the
 * index (detail=column) refuses with an error. test/snapshot/format/text.test.ts checks every BMP code point against
 * SQLite, so an upgrade of either table shows here.
 */
const GLOSS_SEPARATING_LETTERS = '\u19b0-\u19c0\u19c8\u19c9\u1cf2\u1cf3';
/** A word's first character (set difference: the `v` flag), and any after it. */
const GLOSS_WORD_START = `[\\p{L}\\p{N}\\p{Co}]--[${GLOSS_SEPARATING_LETTERS}]`;
const GLOSS_WORD = new RegExp(`[${GLOSS_WORD_START}][[${GLOSS_WORD_START}][${GLOSS_DIACRITICS}]]*`, 'gv');

/**
 * Words of a search text for the English-gloss index, split as its tokenizer (unicode61, categories L* N* Co,
 * diacritics removed) splits them: a word starts with a letter, digit or private-use character and goes on
 * through those and the diacritics above. Every other character separates words, so query syntax never
 * reaches FTS5 and no word is quoted that the index would read as a phrase. NFC first, so that Latin letters
 * with accents are one code point.
 */
export function glossTokens(text: string): string[] {
  return text.normalize('NFC').match(GLOSS_WORD) ?? [];
}

/** URL-safe, readable base of a slug: the folded form in ASCII letters, digits and hyphens. */
export function slugBase(text: string): string {
  const folded = fold(text);
  const ascii = folded.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (ascii !== '') return ascii;
  // Forms with no Latin letters at all (e.g. Arabic-script letters) are named by their code points.
  const points = [...folded].filter((c) => c.trim() !== '').map((c) => c.codePointAt(0)?.toString(16) ?? '');
  return points.length > 0 ? `u${points.join('-')}` : 'x';
}

/** Words a gloss part may start with that say nothing of its meaning ("a house", "the sun"). */
const LEADING_ARTICLE = /^(?:a|an|the)\s+/;

/**
 * A trailing parenthetical that names a genus and species ("tree (Alstonia congensis Engl.)", "fish (Alestes
 * nurse)"): the part is a kind of the thing, not the thing, so it is not a whole sense of the word.
 */
const NAMES_A_SPECIES = /\(\s*(?:[^()]*\s)?[A-Z][a-z]+\.? [a-z]{3,}[^()]*\)\s*[.,;:]?\s*$/;

/** One sense of a definition as a search key: `plain` when the part is the key itself, with no label or "to" before it. */
export interface SenseKey {
  key: string;
  plain: boolean;
}

/**
 * The senses a definition states, as search keys: each `;`- or `,`-separated part, lower-cased, without
 * parentheticals, a leading "to " or "to be " (verbs: "to eat" answers "eat", "to be tall" answers "tall") or article
 * ("A house." answers "house"), and without trailing punctuation. A part that a species name narrows is left out (see
 * NAMES_A_SPECIES), and so are long parts: a query never equals a paragraph. In order: the first is the definition's
 * first sense. A part is plain when nothing was taken from its start: "(Bushi) water" and "to rain" are not plain.
 */
export function senseKeyParts(definition: string, maxChars = 40): SenseKey[] {
  const keys = new Map<string, boolean>();
  // Split outside parentheses only: "(in hot ashes, water, etc.)" holds commas but starts no part.
  for (const part of splitOutsideParentheses(definition)) {
    if (NAMES_A_SPECIES.test(part)) continue;
    const key = glossKey(part);
    if (key === '' || key.length > maxChars) continue;
    const plain = !/^\s*(?:\(|to\s)/i.test(part);
    keys.set(key, (keys.get(key) ?? false) || plain);
  }
  return [...keys].map(([key, plain]) => ({ key, plain }));
}

/** The keys of senseKeyParts. */
export function senseKeys(definition: string, maxChars = 40): string[] {
  return senseKeyParts(definition, maxChars).map((s) => s.key);
}

/**
 * A definition written as a sentence ("A small, bowl-shaped drum, played with fingers."): its commas join a
 * description, they do not list senses.
 */
const SENTENCE_DEFINITION = /^(?:A|An|The)\s/;

/**
 * The `;`- and `,`-separated parts of a definition (only `;` in a sentence-style one), parenthesised text kept whole
 * inside its part.
 */
function splitOutsideParentheses(text: string): string[] {
  const commas = !SENTENCE_DEFINITION.test(text);
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth += 1;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if ((c === ';' || (c === ',' && commas)) && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * The key of a gloss query or gloss part (see senseKeys): "to", "to be" or an article at the start says nothing of it.
 * A parenthesis glued to a word is part of it ("(to)day" is "today").
 */
export function glossKey(text: string): string {
  return normalise(text.replace(/\(([^()]*)\)(?=\p{L})/gu, '$1').replace(/\([^)]*\)/g, ' '))
    .toLowerCase()
    .replace(/^to\s+(?:be\s+)?/, '')
    .replace(LEADING_ARTICLE, '')
    .replace(/[.,:!?]+$/, '')
    .trim();
}

/** Leading words of a gloss part kept as "begins with" keys: a query is rarely longer. */
const MAX_GLOSS_START_WORDS = 3;

/**
 * Keys under which an English definition answers a query that its gloss begins with: the first one to three words
 * of each `;`- or `,`-separated part (as glossKey cleans it, and without a leading article) when the part is
 * longer than that. "water pot" and "water, liquid" begin with "water"; "push; disappointment (of water)" does not.
 */
export function glossStartKeys(definition: string): string[] {
  const keys = new Set<string>();
  // Parentheticals go before the split: "(in hot ashes, water, etc.)" holds commas but starts no part.
  for (const part of definition.replace(/\([^)]*\)/g, ' ').split(/[;,]/)) {
    const words = glossKey(part).match(/[\p{L}\p{N}][\p{L}\p{M}\p{N}'-]*/gu) ?? [];
    for (let n = 1; n <= Math.min(MAX_GLOSS_START_WORDS, words.length); n++) keys.add(words.slice(0, n).join(' '));
  }
  return [...keys];
}
