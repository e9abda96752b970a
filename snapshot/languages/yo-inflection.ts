// Yoruba words that text writes as one with a particle before them: the progressive ń before a verb (ńlọ, ńṣe), and
// the preposition ní before a noun, elided as l- before its vowel (lọ́jọ́: ọjọ́ "day", lára: ara) or keeping ní- where
// the noun's i- is elided (níbi: ibi, nígbà: ìgbà). Each reading is a candidate that the lexicon must hold (rules.ts).
import { letterMarkDifferences, writesLetterMarks } from '../format/letter-marks.ts';
import type { PartOfSpeech } from '../../services/shared/vocabulary.ts';
import type { Analysis } from './rules.ts';

const NOMINAL: readonly PartOfSpeech[] = ['noun', 'pronoun', 'adverb', 'numeral'];
/** A lemma shorter than this is not proposed after ní (a one-letter noun). */
const MIN_LEMMA = 2;

/**
 * Where the text writes underdots, the entry must have the same letters (ọjọ́ is not òjò); text without them (much
 * NTREX Yoruba) says nothing of the letters. The first vowel's tone changes under elision, so tones are not compared.
 */
const sameLetters = (written: string) => (exactForm: string): boolean => !writesLetterMarks(written) || letterMarkDifferences(written, exactForm) === 0;

/** Every reading of a Yoruba word, folded and as written (lower case, NFC, tones kept). */
export function analyseYoruba(folded: string, written: string): Analysis[] {
  const out: Analysis[] = [];
  // The progressive ń (a syllabic nasal with high tone) before a verb, written as one: the verb as written, tones too.
  if (written.startsWith('ń') && folded.length > 2) {
    const verb = written.slice(1);
    out.push({ lemma: folded.slice(1), partsOfSpeech: ['verb'], accepts: (f) => f.normalize('NFC').toLowerCase() === verb, reading: `ń (progressive) ${verb}`, parts: 1 });
  }
  // ní before a vowel: l- and the noun (lọ́jọ́, lára, lórí, lẹ́yìn).
  const elided = /^l([aeiou])/.exec(folded);
  if (elided && folded.length - 1 >= MIN_LEMMA) {
    const noun = written.slice(1);
    out.push({ lemma: folded.slice(1), partsOfSpeech: NOMINAL, accepts: sameLetters(noun), reading: `l- (ní: at, in, on) ${noun}`, parts: 1 });
  }
  // ní with the noun's i- elided (níbi: ibi, nígbà: ìgbà, níbẹ̀: ibẹ̀).
  if (written.startsWith('ní') && /^ni[^aeiou]/.test(folded) && folded.length - 1 >= MIN_LEMMA) {
    const noun = `i${written.slice(2)}`;
    out.push({ lemma: `i${folded.slice(2)}`, partsOfSpeech: NOMINAL, accepts: sameLetters(noun), reading: `ní (at, in, on) ${noun}`, parts: 1 });
  }
  return out;
}
