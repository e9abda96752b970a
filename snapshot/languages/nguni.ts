// The Nguni languages (Xhosa, Zulu, Swati, Southern and Northern Ndebele): Wiktionary's "Relative" part of speech
// (bomvu "red", mnyama "black", manzi "wet") arrives in the export as `conj`, beside the few true conjunctions (xa
// "when", noma "or").
import type { PartOfSpeech } from '../../services/shared/vocabulary.ts';
import { analyseNguni } from './nguni-inflection.ts';
import type { LanguageRules } from './rules.ts';

/** English words that open a conjunction's gloss (or a sentence adverb's: mhlawumbe "maybe"). */
const CONJUNCTION_GLOSS = /^(?:\([^)]*\)\s*)*(?:and|but|or|nor|if|when|whenever|while|because|since|lest|whereas|although|though|whether|unless|until|so|then|than|as|that|even|either|neither|maybe|perhaps|before|after|'cause)\b/i;
const NUMBER_GLOSS = /^(?:one|two|three|four|five|six|seven|eight|nine|ten)$/i;

/**
 * The part of speech of a Wiktionary `conj` block of a Nguni language: a conjunction when a gloss opens with an
 * English conjunction, a numeral when it names a number (sixhenxe "seven", a relative stem in the grammar), else an
 * adjective (the relatives are adjectival words: our vocabulary has no "relative").
 */
function conjunctionBlock(glosses: readonly string[]): PartOfSpeech {
  if (glosses.some((g) => CONJUNCTION_GLOSS.test(g.trim()))) return 'conjunction';
  if (glosses.some((g) => NUMBER_GLOSS.test(g.trim()))) return 'numeral';
  return 'adjective';
}

/** The rules the Nguni languages share. */
export const nguni: LanguageRules = {
  wiktionaryPartOfSpeech: (pos, glosses) => (pos === 'conj' ? conjunctionBlock(glosses) : undefined),
};

/**
 * Zulu and Xhosa, whose verb and noun prefixes the search reads back to their entries (nguni-inflection.ts); Swati
 * and the Ndebele languages have other concords and lexicons too small to check the readings against.
 */
export const nguniWithInflection: LanguageRules = { ...nguni, analyse: analyseNguni };
