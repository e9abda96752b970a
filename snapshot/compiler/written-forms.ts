// Whether a word as written in a text (a sentence, a frequency list) can be a writing of an entry's form: the same
// letters once folded, and every mark the text does write agrees with the form. Texts leave marks out (untoned
// Yoruba web text, Hausa typed without its hooked letters) but do not write marks a word lacks.

import { TONE_MARKS } from '../format/letter-marks.ts';

/** Letters that a plain keyboard types as their base letter. */
const HOOKED = /[ɓɗƙƴ]/u;

interface Cluster {
  base: string;
  tones: string;
  letterMarks: string;
}

/** An affix's hyphen (the Igbo verb root -ga, a prefix ga-): a mark of the dictionary's citation, not a letter. */
const AFFIX_HYPHEN = /^-+|-+$/g;

function clusters(text: string): Cluster[] {
  const out: Cluster[] = [];
  for (const c of text.replace(AFFIX_HYPHEN, '').normalize('NFD').toLowerCase()) {
    if (/\p{M}/u.test(c)) {
      const last = out[out.length - 1];
      if (!last) continue;
      if (TONE_MARKS.test(c)) last.tones += c;
      else last.letterMarks += c;
    } else out.push({ base: c, tones: '', letterMarks: '' });
  }
  return out;
}

/**
 * Whether `written` can be `form` written with fewer marks: the caller has matched their folded keys (a verb root's
 * hyphen aside: the text's ga can be the root -ga, as folding makes them one key). Where the text
 * writes any tone mark, it writes every tone (an unmarked vowel is the language's unmarked tone), so the tones must be
 * the form's; where it writes any mark or hooked letter and the language's text is trusted to write its letters
 * (LanguageRules.trustsWrittenLetters: Yoruba underdots, Hausa hooked letters), the letters must be the form's.
 */
export function canBeWritingOf(written: string, form: string, trustsLetters: boolean): boolean {
  const w = clusters(written);
  const f = clusters(form);
  if (w.length !== f.length) return false;
  const tonesWritten = w.some((c) => c.tones !== '');
  // A text that writes tones or any letter mark writes the language's letters (a Yoruba `owó` is not ọwọ́).
  const lettersWritten = trustsLetters && (tonesWritten || w.some((c) => c.letterMarks !== '' || HOOKED.test(c.base)));
  for (let i = 0; i < w.length; i++) {
    if (tonesWritten && [...w[i].tones].sort().join('') !== [...f[i].tones].sort().join('')) return false;
    if (lettersWritten && (w[i].letterMarks !== f[i].letterMarks || w[i].base !== f[i].base)) return false;
  }
  return true;
}

/** Whether a form carries a tone or length mark (not only letter marks such as underdots). */
export function hasToneMarks(form: string): boolean {
  return TONE_MARKS.test(form.normalize('NFD'));
}

/**
 * A form's letters without its tone and length marks: underdots (ẹ ọ ṣ) and hooked letters (ɓ ɗ ƙ ƴ) are letters of
 * their own and stay; lower case. Two spellings of one word have the same letters; a pronunciation is of the letters.
 */
export function lettersOf(form: string): string {
  return form.normalize('NFD').toLowerCase().replace(/[\u0300-\u0322\u0324-\u036f]/g, '').normalize('NFC');
}
