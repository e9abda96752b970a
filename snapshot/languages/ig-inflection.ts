// Igbo verb inflection read backwards, as Standard Igbo text writes it (folded: no tones, no underdots): the past -rV,
// the negative -ghị, the perfect -la, the infinitive i-/ị- and the participle e-, each leading to a verb root that
// the lexicon must hold; and n' (na) elided before a noun (rules.ts `Analysis`).
import { letterMarkDifferences } from '../format/letter-marks.ts';
import type { Analysis } from './rules.ts';

/**
 * Williamson writes a verb root with a leading hyphen (-nwe "have"): an entry so written is a root, whatever its label.
 * Where the text writes a root's underdots, the root has them (ịbịa "come" is not -bìà "squeeze"); a root read in the
 * Onitsha spelling has exactly the text's underdots, so that a reading departs from the written letters in one way
 * at most (daruru is no past of -dàlụ "fall short").
 */
const verbRootWritten = (root: string, respelt: boolean) => (exactForm: string): boolean =>
  exactForm.startsWith('-') && (!(respelt || /[ịụọṅ]/.test(root)) || letterMarkDifferences(root, exactForm) === 0);
/** A root shorter than this is not proposed (no Igbo verb root has one letter). */
const MIN_ROOT = 2;
/** Standard Igbo's vowels with their underdots (NFC): the analysis reads the letters the text writes. */
const V = '[aeiouịụọ]';
const VOWEL = new RegExp(V);
/** The text's letters without tone marks (underdots and ṅ kept), lower case, NFC. */
const lettersOf = (written: string): string => written.normalize('NFD').replace(/[\u0300-\u0302\u0304\u030c]/g, '').normalize('NFC').replace(/[’‘]/g, "'");
/** The folded key of a lettered form: no marks at all. */
const plain = (lettered: string): string => lettered.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');

/**
 * A root as Standard text writes it, and as the Onitsha lexicon does where they differ regularly (h ~ f, r ~ l:
 * Standard hụ "see" is Williamson's -fụ, kwu "say" his -kwu; docs/standard-igbo.md).
 */
const spellings = (root: string): { spelling: string; note: string }[] => {
  const onitsha = root.replace(/h/g, 'f').replace(/r/g, 'l');
  return onitsha === root ? [{ spelling: root, note: '' }] : [{ spelling: root, note: '' }, { spelling: onitsha, note: ' (Onitsha spelling)' }];
};

/**
 * The readings of one root: a verb root the lexicon writes with its hyphen, whatever its label (the Igbo API labels
 * -nwe "have; own" `other` and -kwu "speak" `affix`).
 */
const readings = (root: string, parts: string[], count: number, respell = true): Analysis[] =>
  (respell ? spellings(root) : [{ spelling: root, note: '' }]).flatMap(({ spelling, note }) =>
    // A root Williamson writes with a hyphen after it too (-bà- "enter") never stands without a suffix; bara is one.
    [spelling, `${spelling}-`].map((written) => ({
      lemma: plain(written),
      written,
      partsOfSpeech: ['verb', 'other', 'affix'],
      accepts: verbRootWritten(written, note !== ''),
      reading: [...parts, `-${written}${note}`].join(' '),
      parts: count + (note ? 1 : 0),
    })),
  );

/** The last vowel of a root: the past suffix -rV copies it (gara, mere, kwuru, nwere, biara). */
const lastVowel = (root: string): string | undefined => new RegExp(`${V}(?!.*${V})`).exec(root)?.[0];
const isRoot = (r: string): boolean => r.length >= MIN_ROOT && VOWEL.test(r) && !VOWEL.test(r[0]);
/** The prefix before a finite or participial form: e-/a- by vowel harmony (enwere, ahụrụ, agaghị). */
const PREFIX = /^([ea])?(.+)$/u;
/**
 * Vowel harmony between a prefix and the root's first vowel: e- and i- go with e, i, u, o; a- and ị- with a, ị, ụ, ọ.
 * Only a clash the letters show for certain rules a reading out, since text often leaves an underdot off (ibanye is
 * ịbanye; abughị is abụghị): e- before a, ị, ụ, ọ (era is no participle of -ra), a- or ị- before e.
 */
const harmonises = (prefix: string, root: string): boolean => {
  const first = new RegExp(V).exec(root)?.[0] ?? '';
  if (prefix === 'e') return !/[aịụọ]/.test(first);
  if (prefix === 'a' || prefix === 'ị') return first !== 'e';
  return true;
};
/**
 * The perfect is written -la after either prefix (adịla, ekwela, etinyela) and -le only after e-, its +ATR form: a- …
 * -le clashes (atule is a-tụle "consider", not -tu with the perfect).
 */
const perfectFits = (prefix: string, suffixVowel: string): boolean => suffixVowel === 'a' || prefix === 'e';

/**
 * Every reading of an Igbo word, from its letters as written (underdots kept: gụrụ is -gụ, not -gu); the search keeps
 * those the lexicon holds as verb roots, or as nouns after n'.
 */
export function analyseIgbo(folded: string, written: string): Analysis[] {
  const out: Analysis[] = [];
  // The letters as written where they fold to the query's key (a letter the folding treats otherwise: the folded key).
  const lettered = lettersOf(written);
  const word = plain(lettered) === folded ? lettered : folded;
  // n' (na "in, at, with") elided before a vowel-initial word: n'aka (aka "hand"), n'ihu (Onitsha ifu "front").
  const clitic = new RegExp(`^n'(${V}.+)$`).exec(word);
  if (clitic) {
    for (const { spelling, note } of spellings(clitic[1])) {
      const dotted = (exactForm: string): boolean => !/[ịụọṅ]/.test(spelling) || letterMarkDifferences(spelling, exactForm) === 0;
      out.push({ lemma: plain(spelling), written: spelling, accepts: dotted, partsOfSpeech: ['noun', 'pronoun', 'determiner', 'adverb'], reading: `n' (na: in, at, with) ${spelling}${note}`, parts: note ? 2 : 1 });
    }
    return out;
  }
  const [, prefix, rest] = PREFIX.exec(word) ?? [];
  const prefixed = prefix ? [`${prefix}- (prefix)`] : [];
  for (const [stem, extra] of [[word, 0], ...(prefix ? [[rest, 1]] : [])] as [string, number][]) {
    const said = extra ? prefixed : [];
    const fits = (root: string): boolean => isRoot(root) && (!extra || harmonises(prefix, root));
    // The past: root + r + its last vowel (kwuru, gara, nwere; with e-/a-: enwere, ahụrụ).
    const past = new RegExp(`^(.+)r(${V})$`).exec(stem);
    if (past && fits(past[1]) && lastVowel(past[1]) === past[2]) out.push(...readings(past[1], [...said, '-rV (past)'], 1 + extra));
    // The negative: root + -ghị (nweghị; agaghị, enweghị).
    const negative = /^(.+)gh[iị]$/.exec(stem);
    if (negative && fits(negative[1])) out.push(...readings(negative[1], [...said, '-ghị (negative)'], 1 + extra));
    // The perfect: e-/a- root -la/-le (emela, agala), the suffix's vowel the prefix's.
    const perfect = /^(.+)l([ae])$/.exec(stem);
    if (extra && perfect && perfectFits(prefix, perfect[2]) && fits(perfect[1])) out.push(...readings(perfect[1], [...said, `-l${perfect[2]} (perfect)`], 2));
  }
  // The infinitive i-/ị- (ime, ịga, ikwu, inwe) and the participle e- after ga- and na- (ga-eme, na-ewe), as written
  // only. Not a-: ahụ "that" would read as a participle of hụ "see", and a- words are mostly nouns (aka, ala, afọ).
  const bare = /^([iịe])(.+)$/.exec(word);
  if (bare && isRoot(bare[2]) && harmonises(bare[1], bare[2])) out.push(...readings(bare[2], [bare[1] === 'e' ? 'e- (participle)' : `${bare[1]}- (infinitive)`], 1, false));
  return out;
}
