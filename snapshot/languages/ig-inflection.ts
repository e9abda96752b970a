// Igbo verb inflection read backwards, as Standard Igbo text writes it (folded: no tones, no underdots): the past -rV,
// the negative -ghị, the perfect -la, the infinitive i-/ị- and the participle e-, each leading to a verb root that
// the lexicon must hold; and n' (na) elided before a noun (rules.ts `Analysis`).
import type { Analysis } from './rules.ts';

/** Williamson writes a verb root with a leading hyphen (-nwe "have"): an entry so written is a root, whatever its label. */
const isVerbRoot = (exactForm: string): boolean => exactForm.startsWith('-');
/** A root shorter than this is not proposed (no Igbo verb root has one letter). */
const MIN_ROOT = 2;

/**
 * A root as Standard text writes it, and as the Onitsha lexicon does where they differ regularly (h ~ f, r ~ l:
 * Standard hụ "see" is Williamson's -fụ, kwu "say" his -kwu; docs/standard-igbo.md).
 */
const spellings = (root: string): { spelling: string; note: string }[] => {
  const onitsha = root.replace(/h/g, 'f').replace(/r/g, 'l');
  return onitsha === root ? [{ spelling: root, note: '' }] : [{ spelling: root, note: '' }, { spelling: onitsha, note: ' (Onitsha spelling)' }];
};

/** The readings of one root: a verb root the lexicon writes with its hyphen (some labelled `other`: -nwe "have; own"). */
const readings = (root: string, parts: string[], count: number, respell = true): Analysis[] =>
  (respell ? spellings(root) : [{ spelling: root, note: '' }]).map(({ spelling, note }) => ({
    lemma: spelling,
    partsOfSpeech: ['verb', 'other'],
    accepts: isVerbRoot,
    reading: [...parts, `-${spelling}${note}`].join(' '),
    parts: count + (note ? 1 : 0),
  }));

/** The last vowel of a root: the past suffix -rV copies it (gara, mere, kwuru, nwere, biara). */
const lastVowel = (root: string): string | undefined => /[aeiou](?=[^aeiou]*$)/.exec(root)?.[0];
const isRoot = (r: string): boolean => r.length >= MIN_ROOT && /[aeiou]/.test(r) && /^[^aeiou]/.test(r);
/** The prefix before a finite or participial form: e-/a- by vowel harmony (enwere, ahụrụ, agaghị). */
const PREFIX = /^([ea])?(.+)$/;

/** Every reading of a folded Igbo word (the search keeps those the lexicon holds as verb roots, or nouns after n'). */
export function analyseIgbo(word: string): Analysis[] {
  const out: Analysis[] = [];
  // n' (na "in, at, with") elided before a vowel-initial word: n'aka (aka "hand"), n'ihu (Onitsha ifu "front").
  const clitic = /^n'([aeiou].+)$/.exec(word);
  if (clitic) {
    for (const { spelling, note } of spellings(clitic[1])) {
      out.push({ lemma: spelling, partsOfSpeech: ['noun', 'pronoun', 'numeral', 'determiner', 'adverb'], reading: `n' (na: in, at, with) ${spelling}${note}`, parts: note ? 2 : 1 });
    }
    return out;
  }
  const [, prefix, rest] = PREFIX.exec(word) ?? [];
  const prefixed = prefix ? [`${prefix}- (prefix)`] : [];
  for (const [stem, extra] of [[word, 0], ...(prefix ? [[rest, 1]] : [])] as [string, number][]) {
    const said = extra ? prefixed : [];
    // The past: root + r + its last vowel (kwuru, gara, nwere; with e-/a-: enwere, ahụrụ).
    const past = /^(.+)r([aeiou])$/.exec(stem);
    if (past && isRoot(past[1]) && lastVowel(past[1]) === past[2]) out.push(...readings(past[1], [...said, '-rV (past)'], 1 + extra));
    // The negative: root + -ghị (nweghị; agaghị, enweghị).
    const negative = /^(.+)ghi$/.exec(stem);
    if (negative && isRoot(negative[1])) out.push(...readings(negative[1], [...said, '-ghị (negative)'], 1 + extra));
    // The perfect: e-/a- root -la/-le (emela, agala).
    const perfect = /^(.+)l[ae]$/.exec(stem);
    if (extra && perfect && isRoot(perfect[1])) out.push(...readings(perfect[1], [...said, '-la (perfect)'], 2));
  }
  // The infinitive i-/ị- (ime, ịga, ikwu, inwe) and the participle e- after ga- and na- (ga-eme, na-ewe), as written
  // only. Not a-: ahụ "that" would read as a participle of hụ "see", and a- words are mostly nouns (aka, ala, afọ).
  const bare = /^([ie])(.+)$/.exec(word);
  if (bare && isRoot(bare[2])) out.push(...readings(bare[2], [bare[1] === 'i' ? 'i- (infinitive)' : `${bare[1]}- (participle)`], 1, false));
  return out;
}
