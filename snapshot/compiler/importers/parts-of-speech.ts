// Source part-of-speech tags mapped onto the one shared vocabulary (table documented in docs/snapshot.md).
import type { PartOfSpeech } from '../../../services/shared/vocabulary.ts';

/** Igbo API word classes (Williamson's codes). */
export const IGBO_API_POS: Readonly<Record<string, PartOfSpeech>> = {
  AV: 'verb', // active verb
  PV: 'verb', // passive verb
  NNC: 'noun', // common noun
  NNP: 'proper-noun',
  ESUF: 'affix', // extensional suffix
  ISUF: 'affix', // inflectional suffix
  INTJ: 'interjection',
  PRN: 'pronoun',
  CD: 'numeral',
  PREP: 'preposition',
  DEM: 'determiner', // demonstrative
  CJN: 'conjunction',
  ADV: 'adverb',
  QTF: 'determiner', // quantifier
  ADJ: 'adjective',
};

/** Wiktionary (kaikki) parts of speech. */
export const KAIKKI_POS: Readonly<Record<string, PartOfSpeech>> = {
  noun: 'noun',
  verb: 'verb',
  name: 'proper-noun',
  character: 'letter',
  intj: 'interjection',
  adv: 'adverb',
  adj: 'adjective',
  pron: 'pronoun',
  num: 'numeral',
  det: 'determiner',
  proverb: 'proverb',
  particle: 'particle',
  prep: 'preposition',
  conj: 'conjunction',
  prefix: 'affix',
  suffix: 'affix',
  interfix: 'affix',
  phrase: 'phrase',
  prep_phrase: 'phrase',
  contraction: 'other',
  // Wiktionary's further headers in the African-language exports.
  abbrev: 'abbreviation',
  article: 'determiner',
  postp: 'preposition',
};

/** FreeDict TEI `<pos>` values (swh-eng). */
export const FREEDICT_POS: Readonly<Record<string, PartOfSpeech>> = {
  n: 'noun',
  v: 'verb',
  pron: 'pronoun',
  adj: 'adjective',
  adv: 'adverb',
  cop: 'verb', // copula
  num: 'numeral',
  conj: 'conjunction',
  interj: 'interjection',
  prep: 'preposition',
  expr: 'phrase',
  prt: 'particle',
};

/** Universal Dependencies UPOS tags; punctuation, symbols and X carry no lemma worth attaching. */
export const UPOS: Readonly<Record<string, PartOfSpeech | null>> = {
  NOUN: 'noun',
  PROPN: 'proper-noun',
  VERB: 'verb',
  AUX: 'verb',
  ADJ: 'adjective',
  ADV: 'adverb',
  PRON: 'pronoun',
  NUM: 'numeral',
  DET: 'determiner',
  ADP: 'preposition',
  CCONJ: 'conjunction',
  SCONJ: 'conjunction',
  INTJ: 'interjection',
  PART: 'particle',
  PUNCT: null,
  SYM: null,
  X: null,
};

/** Igbo records with no word class: a form ending in a hyphen is a prefix; the rest stay `other`. */
export function igboPartOfSpeech(wordClass: string, form: string): PartOfSpeech {
  const mapped = IGBO_API_POS[wordClass.trim()];
  if (mapped) return mapped;
  return form.endsWith('-') ? 'affix' : 'other';
}
