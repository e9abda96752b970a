// Swahili inflection read backwards: the verb's subject, tense, relative and object markers and its extensions, and
// the noun classes' plural and locative forms, each reading a candidate the lexicon must hold (rules.ts `Analysis`).
import type { Analysis } from './rules.ts';

/** Subject markers of affirmative verbs: persons, then the noun classes (1 a-, 2 wa-, 3 u-, 4 i-, 5 li-, 6 ya- …). */
const SUBJECTS = ['ni', 'u', 'a', 'tu', 'm', 'wa', 'i', 'li', 'ya', 'ki', 'vi', 'zi', 'ku', 'pa', 'mu'];
/** Negative subject markers: si- (I not), hu- (you not), ha- (she not), hatu-, ham-, hawa- and the classes'. */
const NEGATIVE_SUBJECTS = ['si', 'hu', 'ha', 'hatu', 'ham', 'hawa', 'hau', 'hai', 'hali', 'haya', 'haki', 'havi', 'hazi', 'haku', 'hapa', 'hamu'];
/** Tenses after an affirmative subject: present, past, future, perfect, conditional, consecutive, -nge-/-ngali-. */
const TENSES = ['na', 'li', 'ta', 'me', 'ki', 'ka', 'nge', 'ngali', 'ngeli'];
/** Tenses after a negative subject: past -ku-, not yet -ja-, future -ta-; none for the present, whose verb ends in -i. */
const NEGATIVE_TENSES = ['ku', 'ja', 'ta'];
/** Relative markers after the tense (aliyesema, kilichotokea, wanaosoma); the negative relative takes -si- (asiyejua). */
const RELATIVES = ['ye', 'o', 'cho', 'vyo', 'zo', 'lo', 'yo', 'po', 'ko', 'mo', 'wo'];
/** Object markers before the stem (nimekupenda, alimwona, wanazitumia); ji- is the reflexive. */
const OBJECTS = ['ni', 'ku', 'm', 'mw', 'tu', 'wa', 'ki', 'vi', 'li', 'ya', 'i', 'zi', 'u', 'pa', 'ji'];
/** Vowel-initial stems whose infinitive is written with kw- (kwenda, kwisha); sw.ts holds the same for citation. */
const KW_STEMS = new Set(['enda', 'isha']);

/** A verb stem with what was taken off before it. */
interface Stem {
  stem: string;
  parts: number;
  reading: string[];
  /** True after a negative subject with no tense: the present negative, whose stem ends in -i (hasomi). */
  negativePresent?: boolean;
  /** True where a tense was written: a monosyllabic verb keeps its ku- there (ninakula, walikwenda). */
  tensed?: boolean;
  /** True where a monosyllabic verb drops its ku- (akiwa, hakuwa, hali): after -ki-, the negative past, the negative present. */
  bare?: boolean;
}

const strip = (word: string, prefix: string): string | undefined => (word.startsWith(prefix) && word.length > prefix.length ? word.slice(prefix.length) : undefined);

/** The remainders after the subject, tense, relative and object markers (each optional where the grammar allows). */
function verbStems(word: string): Stem[] {
  const out: Stem[] = [];
  const afterObject = (rest: string, parts: number, reading: string[], flags: Partial<Stem>): void => {
    out.push({ stem: rest, parts, reading, ...flags });
    for (const object of OBJECTS) {
      const stem = strip(rest, object);
      if (stem) out.push({ stem, parts: parts + 1, reading: [...reading, `${object}- (object)`], ...flags });
    }
  };
  for (const subject of SUBJECTS) {
    const afterSubject = strip(word, subject);
    if (!afterSubject) continue;
    for (const tense of [...TENSES, 'si']) {
      const afterTense = strip(afterSubject, tense);
      if (!afterTense) continue;
      const reading = [`${subject}- (subject)`, `-${tense}- (${tense === 'si' ? 'negative' : 'tense'})`];
      // -si- is the negative relative only: a relative marker must follow it.
      if (tense !== 'si') afterObject(afterTense, 2, reading, tense === 'ki' ? { bare: true } : { tensed: true });
      for (const relative of RELATIVES) {
        const afterRelative = strip(afterTense, relative);
        if (afterRelative) afterObject(afterRelative, 3, [...reading, `-${relative}- (relative)`], { tensed: true });
      }
    }
  }
  for (const subject of NEGATIVE_SUBJECTS) {
    const afterSubject = strip(word, subject);
    if (!afterSubject) continue;
    afterObject(afterSubject, 1, [`${subject}- (negative subject)`], { negativePresent: true, bare: true });
    for (const tense of NEGATIVE_TENSES) {
      const afterTense = strip(afterSubject, tense);
      if (afterTense) afterObject(afterTense, 2, [`${subject}- (negative subject)`, `-${tense}- (tense)`], tense === 'ku' ? { bare: true } : { tensed: true });
    }
  }
  // The infinitive with an object (kumwona) or negated (kutofanya), and the habitual hu- (husoma).
  for (const [prefix, name] of [['ku', 'infinitive'], ['kuto', 'negative infinitive'], ['hu', 'habitual']] as const) {
    const rest = strip(word, prefix);
    if (!rest) continue;
    // The habitual and the infinitive with an object take a one-syllable stem bare (huwa, kumpa, kuwapa).
    if (prefix !== 'ku') out.push({ stem: rest, parts: 1, reading: [`${prefix}- (${name})`], tensed: prefix === 'kuto', bare: prefix === 'hu' });
    for (const object of OBJECTS) {
      const stem = strip(rest, object);
      if (stem && prefix !== 'hu') out.push({ stem, parts: 2, reading: [`${prefix}- (${name})`, `${object}- (object)`], bare: true });
    }
  }
  return out;
}

/** The stem without one verb extension: passive -w-, applicative -i-/-e-, causative -ish-/-esh-, stative, reciprocal. */
function unextended(stem: string): { stem: string; extension: string }[] {
  const out: { stem: string; extension: string }[] = [];
  const consonantBefore = (at: number): boolean => at > 0 && !/[aeiou]/.test(stem[at - 1]);
  const take = (suffix: string, extension: string, needsConsonant = true): void => {
    const at = stem.length - suffix.length;
    if (stem.endsWith(suffix) && at >= 2 && (!needsConsonant || consonantBefore(at))) out.push({ stem: `${stem.slice(0, at)}a`, extension });
  };
  take('wa', '-w- (passive)');
  take('iwa', '-iw- (passive)');
  take('ewa', '-ew- (passive)');
  take('liwa', '-liw- (passive)', false);
  take('lewa', '-lew- (passive)', false);
  take('ia', '-i- (applicative)');
  take('ea', '-e- (applicative)');
  take('isha', '-ish- (causative)');
  take('esha', '-esh- (causative)');
  take('ishwa', '-ishw- (causative passive)');
  take('eshwa', '-eshw- (causative passive)');
  take('ika', '-ik- (stative)');
  take('eka', '-ek- (stative)');
  take('ana', '-an- (reciprocal)');
  return out;
}

/** The infinitive headword of a stem: kw- before the kw- stems, else ku-. */
const infinitiveOf = (stem: string): string => `${KW_STEMS.has(stem) ? 'kw' : 'ku'}${stem}`;

/** An infinitive of a one-syllable stem (kula, kunywa, kuwa) or of a kw- stem (kwenda, kwisha). */
function monosyllabicInfinitive(word: string): boolean {
  const stem = /^k[uw]/.test(word) ? word.slice(2) : undefined;
  return stem !== undefined && (KW_STEMS.has(stem) || (stem.match(/[aeiou]/g) ?? []).length === 1);
}

/** Verb readings: each stem (its final vowel as the mood requires) and its unextended stem, as infinitives. */
function verbReadings(word: string): Analysis[] {
  const out: Analysis[] = [];
  for (const { stem, parts, reading, negativePresent, tensed, bare } of verbStems(word)) {
    // The verb's final vowel: -a, the present negative's -i (hasomi), the subjunctive's -e (asome, tusome).
    const finals = negativePresent ? [[stem.replace(/i$/, 'a'), stem.endsWith('i')]] : [[stem, stem.endsWith('a')], [stem.replace(/e$/, 'a'), stem.endsWith('e') && parts === 1]];
    for (const [base, ok] of finals as [string, boolean][]) {
      // A stem of one syllable (la, wa, nywa) stands bare only where the grammar drops ku- (akiwa, hakuwa).
      if (!ok || base.length < 2 || (!bare && !/[aeiou]/.test(base.slice(0, -1)))) continue;
      const changed = base !== stem ? 1 : 0;
      // A monosyllabic verb keeps its ku- after a tense (ninakula, walikwenda): the remainder is the infinitive itself.
      const lemmas = tensed && monosyllabicInfinitive(base) ? [base, infinitiveOf(base)] : [infinitiveOf(base)];
      for (const lemma of lemmas) out.push({ lemma, partsOfSpeech: ['verb'], reading: [...reading, base].join(' '), parts: parts + changed });
      for (const { stem: plain, extension } of unextended(base)) {
        out.push({ lemma: infinitiveOf(plain), partsOfSpeech: ['verb'], reading: [...reading, `${plain} + ${extension}`].join(' '), parts: parts + changed + 1 });
      }
    }
  }
  return out;
}

/** Plural class prefixes and the singular prefixes they pair with: wa-/m- (1/2), mi-/m- (3/4), ma-/ji- (5/6) … */
const PLURALS: readonly (readonly [plural: string, singulars: readonly string[], classes: string])[] = [
  ['wa', ['m', 'mw', 'mu'], '2 → 1'],
  ['mi', ['m', 'mw', 'mu'], '4 → 3'],
  ['ma', ['', 'ji', 'j'], '6 → 5'],
  ['vi', ['ki'], '8 → 7'],
  ['vy', ['ch'], '8 → 7'],
  ['ny', ['w'], '10 → 11'],
];

/** Noun readings: a plural's singular, the locative -ni (nchini, nyumbani), and both. */
function nounReadings(word: string): Analysis[] {
  const out: Analysis[] = [];
  const plurals = (w: string, parts: number, reading: string[]): void => {
    for (const [plural, singulars, classes] of PLURALS) {
      const stem = strip(w, plural);
      if (!stem || stem.length < 2) continue;
      for (const singular of singulars) out.push({ lemma: `${singular}${stem}`, partsOfSpeech: ['noun'], reading: [...reading, `${plural}- plural (class ${classes})`].join(' '), parts: parts + 1 });
    }
  };
  plurals(word, 0, []);
  const located = word.endsWith('ni') && word.length > 4 ? word.slice(0, -2) : undefined;
  if (located) {
    out.push({ lemma: located, partsOfSpeech: ['noun'], reading: '-ni (locative)', parts: 1 });
    plurals(located, 1, ['-ni (locative)']);
  }
  return out;
}

/** Every reading of a folded Swahili word (the search keeps those the lexicon holds). */
export function analyseSwahili(word: string): Analysis[] {
  // Three-letter words are function words (ana, ila, hii), not inflected forms.
  if (word.length < 4) return [];
  return [...nounReadings(word), ...verbReadings(word)];
}
