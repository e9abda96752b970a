// Tone patterns of a spelling (by the language's tone orthography) and of an IPA transcription, to compare them.
import type { Tone, ToneOrthography } from '../languages/rules.ts';

const MARK_NAMES: Readonly<Record<string, keyof ToneOrthography['marks']>> = {
  '\u0300': 'grave',
  '\u0301': 'acute',
  '\u0302': 'circumflex',
  '\u030c': 'caron',
  '\u0304': 'macron',
};
/** IPA's tone diacritics (the double accents are extra-high and extra-low). */
const IPA_MARKS: Readonly<Record<string, Tone>> = {
  '\u0301': 'H',
  '\u030b': 'H',
  '\u0300': 'L',
  '\u030f': 'L',
  '\u0304': 'M',
  '\u0302': 'F',
  '\u030c': 'R',
};
/** Chao tone letters as MFA writes them after a vowel: ˥ high, ˩ low, ˧ mid, ˥˦/˥˩ falling, ˩˥ rising. */
const TONE_LETTERS: readonly [RegExp, Tone][] = [
  [/^(?:˥˦|˥˩|˥˨|˦˩)/, 'F'],
  [/^(?:˩˥|˨˥|˩˦)/, 'R'],
  [/^[˥˦]/, 'H'],
  [/^[˩˨]/, 'L'],
  [/^˧/, 'M'],
];
const SPELLING_VOWEL = /[aeiouɛɔəɪʊ]/;
const IPA_VOWEL = /[aeiouɛɔəɪʊɑæɐɨʉɯɤøyœɒʌɜɘɵ]/;
const NASAL = /[mnŋ]/;

/** Base letters with the combining marks that follow each (NFD). */
function clusters(text: string): { base: string; marks: string; after: string }[] {
  const chars = [...text.normalize('NFD').toLowerCase()];
  const out: { base: string; marks: string; after: string }[] = [];
  for (let i = 0; i < chars.length; i++) {
    if (/\p{M}/u.test(chars[i])) {
      if (out.length > 0) out[out.length - 1].marks += chars[i];
      continue;
    }
    out.push({ base: chars[i], marks: '', after: chars.slice(i + 1).join('') });
  }
  return out;
}

/**
 * The tones of a spelling's vowels (and of syllabic nasals that carry a mark) as the language writes them; null
 * when the language has no tone orthography.
 */
export function spellingTones(form: string, orthography: ToneOrthography | undefined): Tone[] | null {
  if (!orthography) return null;
  const tones: Tone[] = [];
  for (const { base, marks } of clusters(form)) {
    const named = [...marks].map((m) => MARK_NAMES[m]).filter((m) => m !== undefined);
    const marked = named.map((m) => orthography.marks[m]).find((t) => t !== undefined);
    if (SPELLING_VOWEL.test(base)) tones.push(marked ?? orthography.unmarked);
    else if (NASAL.test(base) && marked !== undefined) tones.push(marked);
  }
  return tones;
}

/** The tones of an IPA transcription's vowels (diacritics or tone letters), unmarked ones as `unmarked`. */
export function ipaTones(ipa: string, unmarked: Tone): Tone[] {
  const tones: Tone[] = [];
  for (const { base, marks, after } of clusters(ipa)) {
    const marked = [...marks].map((m) => IPA_MARKS[m]).find((t) => t !== undefined);
    const letter = TONE_LETTERS.find(([pattern]) => pattern.test(after.replace(/^ː/, '')))?.[1];
    if (IPA_VOWEL.test(base)) tones.push(marked ?? letter ?? unmarked);
    else if (NASAL.test(base) && (marked ?? letter) !== undefined) tones.push((marked ?? letter) as Tone);
  }
  return tones;
}

/** Whether the IPA's tones are the spelling's: the test for choosing among several pronunciations. */
export function tonesAgree(form: string, ipa: string, orthography: ToneOrthography): boolean {
  const spelled = spellingTones(form, orthography) ?? [];
  const heard = ipaTones(ipa, orthography.unmarked);
  return spelled.length > 0 && spelled.length === heard.length && spelled.every((t, i) => t === heard[i]);
}

/**
 * How many vowels a spelling and an IPA transcription agree on the length of: a macron marks a long vowel in a
 * spelling whose tones are written otherwise (Hausa ā), ː in the IPA. The tie-break among transcriptions whose tones
 * agree (kā̀r̃ê → kàːrêː before kàrê).
 */
export function lengthAgreement(form: string, ipa: string): number {
  const spelled = clusters(form)
    .filter((c) => SPELLING_VOWEL.test(c.base))
    .map((c) => c.marks.includes('\u0304'));
  const heard = clusters(ipa)
    .filter((c) => IPA_VOWEL.test(c.base))
    .map((c) => c.after.replace(/^\p{M}+/u, '').startsWith('ː'));
  let n = 0;
  for (let i = 0; i < Math.min(spelled.length, heard.length); i++) if (spelled[i] === heard[i]) n += 1;
  return n;
}
