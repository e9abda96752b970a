// Marks on letters, told apart by what they write: a tone (or length) mark, or a mark that makes another letter
// (Igbo and Yoruba underdots, Igbo ṅ). Shared by the build (which written word can be which entry) and the search
// (which folded match a search text writes more closely).

/** Tone and length marks: grave, acute, circumflex, macron, caron, double grave/acute. */
export const TONE_MARKS = /[\u0300\u0301\u0302\u0304\u030b\u030c\u030f]/u;
/** Marks that make another letter: dot below (ẹ ọ ṣ ị ụ), dot above (ṅ), tilde (ĩ ũ r̃). */
export const LETTER_MARKS = /[\u0303\u0307\u0323]/u;

/** A verb root's leading hyphen (Igbo -bụ): not a letter; the word is written without it. */
export function withoutRootHyphen(form: string): string {
  return form.replace(/^-+\s*/, '');
}

/** Whether the text carries a tone or length mark. */
export function writesToneMarks(text: string): boolean {
  return TONE_MARKS.test(text.normalize('NFD'));
}

/** Whether the text carries a mark that makes another letter (an underdot, a dot above). */
export function writesLetterMarks(text: string): boolean {
  return LETTER_MARKS.test(text.normalize('NFD'));
}

/** Each letter of a form as its base letter and its letter marks (tones dropped), lower case, a root's hyphen aside. */
function markedLetters(form: string): string[] {
  const out: string[] = [];
  for (const c of withoutRootHyphen(form).normalize('NFD').toLowerCase()) {
    if (/\p{M}/u.test(c)) {
      if (out.length > 0 && LETTER_MARKS.test(c)) out[out.length - 1] += c;
    } else out.push(c);
  }
  // Marks in one order: a letter with two (ṇ̇) compares alike however it was typed.
  return out.map((letter) => [...letter].sort().join(''));
}

/**
 * In how many letters `written` and `form` differ by their letter marks (bụ and -bụ: 0; bụ and -bu: 1), tones
 * aside; Infinity when they do not have the same number of letters. The caller has matched their folded keys.
 */
export function letterMarkDifferences(written: string, form: string): number {
  const w = markedLetters(written);
  const f = markedLetters(form);
  if (w.length !== f.length) return Number.POSITIVE_INFINITY;
  let n = 0;
  for (let i = 0; i < w.length; i++) if (w[i] !== f[i]) n += 1;
  return n;
}
