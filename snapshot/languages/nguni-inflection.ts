// Zulu and Xhosa inflection read backwards: a verb's negative, subject, tense and object prefixes and its endings;
// a noun's plural class prefix, locative, copulative and the concords that fuse with its first vowel (nabantu,
// ngokuthi, kwezinye). Each reading is a candidate that the lexicon must hold (rules.ts `Analysis`).
import type { PartOfSpeech } from '../../services/shared/vocabulary.ts';
import type { Analysis } from './rules.ts';

/** Subject markers: persons (Zulu ngi-, Xhosa ndi-, u-, si-, ni-) and the classes (ba-, i-, li-, a-, zi-, ku-, lu-, bu-). */
const SUBJECTS = ['ngi', 'ndi', 'u', 'si', 'ni', 'ba', 'i', 'li', 'a', 'zi', 'ku', 'lu', 'bu', 'ka'];
/** The same before a vowel-initial stem, where the marker's vowel gives way (wenza, benza, ngenza, kwenza). */
const SUBJECTS_BEFORE_VOWEL = ['ng', 'nd', 'w', 's', 'n', 'b', 'y', 'l', 'z', 'kw', 'lw', 'bw'];
/** Subject and remote-past -a- fused (wahamba, bahamba, sahamba, ngahamba, ndahamba). */
const REMOTE_PAST = ['nga', 'nda', 'wa', 'sa', 'na', 'ba', 'ya', 'la', 'za', 'kwa', 'lwa', 'bwa'];
/** Negative subjects: a- before the subject marker (angi-, andi-, aka- for class 1, awu-, asi-, ani-, aba- …). */
const NEGATIVE_SUBJECTS = ['angi', 'andi', 'aku', 'aka', 'asi', 'ani', 'aba', 'awu', 'ayi', 'ali', 'awa', 'azi', 'alu', 'abu'];
/** Tense and aspect after the subject: present -ya-, future -zo-/-yo-/-za-, -be-, still -sa-, -se-, potential -nga-. */
const TENSES = ['ya', 'zo', 'yo', 'za', 'zaku', 'zoku', 'yoku', 'be', 'sa', 'se', 'nga'];
/** Object markers before the root; zi- is also the reflexive. */
const OBJECTS = ['ngi', 'ndi', 'ku', 'kw', 'm', 'mu', 'si', 'ni', 'ba', 'wu', 'yi', 'li', 'wa', 'zi', 'lu', 'bu'];
/**
 * A subject and an object that together spell a noun's class prefix with its augment (i- zi-: izi-, i- si-: isi-,
 * i- li-: ili-): a word so begun is a noun far more often than a verb, and where the lexicon lacks the noun the verb
 * reading is a false hit (izindiza "aeroplanes" is no "it flies them").
 */
const NOUN_PREFIXES = new Set(['izi', 'isi', 'ili']);
/** A verb stem shorter than this is not proposed: two-letter roots (-ya, -za, -ba) would make any word a verb. */
const MIN_VERB_STEM = 3;

interface Prefixed {
  rest: string;
  parts: number;
  reading: string[];
  negative?: boolean;
}

const strip = (word: string, prefix: string): string | undefined => (word.startsWith(prefix) && word.length > prefix.length ? word.slice(prefix.length) : undefined);

/** What may stand before a verb stem: the infinitive, a subject with a tense and an object, a negative subject. */
function verbPrefixes(word: string): Prefixed[] {
  const out: Prefixed[] = [];
  const withObject = (rest: string, parts: number, reading: string[], negative = false): void => {
    out.push({ rest, parts, reading, negative });
    for (const object of OBJECTS) {
      const stem = strip(rest, object);
      if (stem && !NOUN_PREFIXES.has(word.slice(0, word.length - stem.length))) out.push({ rest: stem, parts: parts + 1, reading: [...reading, `${object}- (object)`], negative });
    }
  };
  for (const infinitive of ['uku', 'ukw', 'ku']) {
    const rest = strip(word, infinitive);
    if (rest) withObject(rest, 1, [`${infinitive}- (infinitive)`]);
  }
  for (const subject of SUBJECTS) {
    const rest = strip(word, subject);
    if (!rest) continue;
    withObject(rest, 1, [`${subject}- (subject)`]);
    for (const tense of TENSES) {
      const stem = strip(rest, tense);
      if (stem) withObject(stem, 2, [`${subject}- (subject)`, `-${tense}- (tense)`]);
    }
  }
  for (const subject of SUBJECTS_BEFORE_VOWEL) {
    const rest = strip(word, subject);
    if (rest && /^[aeo]/.test(rest)) out.push({ rest, parts: 1, reading: [`${subject}- (subject before a vowel)`] });
  }
  for (const past of REMOTE_PAST) {
    const rest = strip(word, past);
    if (rest) withObject(rest, 2, [`${past}- (subject, remote past)`]);
  }
  for (const subject of NEGATIVE_SUBJECTS) {
    const rest = strip(word, subject);
    if (rest) withObject(rest, 1, [`${subject}- (negative subject)`], true);
  }
  return out;
}

/** The verb's ending back to -a: the perfect -ile, the subjunctive -e, the negative -i and -anga, the relative -yo. */
function verbEndings(rest: string, negative: boolean): { stem: string; parts: number; reading: string[] }[] {
  const out: { stem: string; parts: number; reading: string[] }[] = [];
  // The relative -yo follows -a or the perfect -ile (ehambayo, abafundileyo): ngaleyo "with that" is no verb.
  const base = /(?:a|ile)yo$/.test(rest) && rest.length > 4 ? rest.slice(0, -2) : rest;
  const relative = base !== rest ? ['-yo (relative)'] : [];
  const extra = relative.length;
  // As it stands: -a, and the few verbs in -i or -o that keep it (-thi "say", -azi "know", -sho "say").
  out.push({ stem: base, parts: extra, reading: relative });
  if (base.endsWith('ile')) out.push({ stem: `${base.slice(0, -3)}a`, parts: extra + 1, reading: ['-ile (perfect)', ...relative] });
  if (base.endsWith('e') && !base.endsWith('ile')) out.push({ stem: `${base.slice(0, -1)}a`, parts: extra + 1, reading: ['-e (subjunctive or perfect)', ...relative] });
  if (negative && base.endsWith('anga')) out.push({ stem: `${base.slice(0, -4)}a`, parts: extra + 1, reading: ['-anga (negative past)'] });
  if (negative && base.endsWith('i')) out.push({ stem: `${base.slice(0, -1)}a`, parts: extra + 1, reading: ['-i (negative)'] });
  return out;
}

/** The stem without one extension: passive -w-, applicative -el-, causative -is-, reciprocal -an-, neuter -ek-. */
function unextended(stem: string): { stem: string; extension: string }[] {
  const out: { stem: string; extension: string }[] = [];
  for (const [suffix, extension] of [['wa', '-w- (passive)'], ['iwa', '-iw- (passive)'], ['ela', '-el- (applicative)'], ['isa', '-is- (causative)'], ['isisa', '-isis- (intensive)'], ['ana', '-an- (reciprocal)'], ['eka', '-ek- (neuter)'], ['akala', '-akal- (neuter)']] as const) {
    const at = stem.length - suffix.length;
    if (stem.endsWith(suffix) && at >= 2 && !/[aeiou]/.test(stem[at - 1])) out.push({ stem: `${stem.slice(0, at)}a`, extension });
  }
  return out;
}

function verbReadings(word: string): Analysis[] {
  const out: Analysis[] = [];
  for (const prefixed of verbPrefixes(word)) {
    for (const { stem, parts, reading } of verbEndings(prefixed.rest, prefixed.negative ?? false)) {
      if (stem.length < MIN_VERB_STEM) continue;
      const said = [...prefixed.reading, ...reading];
      out.push({ lemma: stem, partsOfSpeech: ['verb'], reading: [...said, stem].join(' '), parts: prefixed.parts + parts });
      for (const plain of unextended(stem)) {
        if (plain.stem.length >= MIN_VERB_STEM) out.push({ lemma: plain.stem, partsOfSpeech: ['verb'], reading: [...said, `${plain.stem} + ${plain.extension}`].join(' '), parts: prefixed.parts + parts + 1 });
      }
    }
  }
  return out;
}

/** Plural prefixes and the singular prefixes of their class pairs (1/2, 3/4, 5/6, 7/8, 9/10, 11/10, 1a/2a). */
const PLURALS: readonly (readonly [plural: string, singulars: readonly string[]])[] = [
  ['aba', ['umu', 'um']],
  ['abe', ['umu', 'um']],
  ['imi', ['umu', 'um']],
  ['ama', ['i', 'ili']],
  ['ame', ['i', 'ili']],
  ['izi', ['isi', 'u', 'ulu']],
  ['izin', ['in', 'u', 'ulu']],
  ['izim', ['im', 'u', 'ulu']],
  ['ii', ['i']],
  ['iin', ['in', 'u']],
  ['iim', ['im', 'u']],
  ['oo', ['u']],
  ['o', ['u']],
];
/** The parts of speech a noun prefix or concord may lead to (a noun, or a pronoun, numeral or infinitive in its place). */
const NOMINAL: readonly PartOfSpeech[] = ['noun', 'pronoun', 'numeral', 'adjective', 'conjunction', 'adverb'];
/** Concords ending in -a that fuse with a noun's first vowel (a+a a, a+i e, a+u o): with, by, like, of, at. */
const CONCORDS = ['n', 'ng', 'njeng', 'kun', 'w', 'b', 'y', 'l', 's', 'z', 'lw', 'bw', 'kw'];
const FUSED: Readonly<Record<string, string>> = { a: 'a', e: 'i', o: 'u' };

/** Noun readings: plural to singular, the locative e-…-ini, the copulative ng-/y-, the fused concords. */
function nounReadings(word: string): Analysis[] {
  const out: Analysis[] = [];
  for (const [plural, singulars] of PLURALS) {
    const stem = strip(word, plural);
    if (!stem || stem.length < 2) continue;
    for (const singular of singulars) out.push({ lemma: `${singular}${stem}`, partsOfSpeech: ['noun'], reading: `${plural}- (plural)`, parts: 1 });
  }
  // The locative e-…-ini/-eni/-weni (ezweni: izwe, endlini: indlu), on a noun whose augment and prefix are i-, u-, um-, in- …
  const located = /^e(.{2,}?)(ini|eni|weni)$/.exec(word);
  if (located) {
    const [, stem, suffix] = located;
    const finals = suffix === 'weni' ? ['o', 'u'] : suffix === 'eni' ? ['a', 'e'] : ['a', 'e', 'i', 'u'];
    for (const prefix of ['i', 'u', 'um', 'umu', 'isi', 'in', 'im', 'ili']) {
      for (const final of finals) out.push({ lemma: `${prefix}${stem}${final}`, partsOfSpeech: ['noun'], reading: `e-…-${suffix} (locative)`, parts: 1 });
    }
  }
  // The copulative: ngu-/nga- before u-/a- nouns (ngumuntu, ngabantu), yi- before i- nouns (yindlela).
  const copula = /^(ng)([auo].+)$/.exec(word) ?? /^(y)(i.+)$/.exec(word);
  if (copula) out.push({ lemma: copula[2], partsOfSpeech: NOMINAL, reading: `${copula[1]}- (copulative)`, parts: 1 });
  for (const concord of CONCORDS) {
    const rest = strip(word, concord);
    const vowel = rest?.[0];
    if (!rest || !vowel || !(vowel in FUSED) || rest.length < 3) continue;
    const noun = `${FUSED[vowel]}${rest.slice(1)}`;
    out.push({ lemma: noun, partsOfSpeech: NOMINAL, reading: `${concord}a- (concord, fused with ${FUSED[vowel]}-)`, parts: 1 });
    // An infinitive after the concord (ngokuthi, ukuthi; nokuhamba: hamba) leads to its verb too.
    const infinitive = /^uk[uw](.+)$/.exec(noun);
    if (infinitive && infinitive[1].length >= MIN_VERB_STEM) out.push({ lemma: infinitive[1], partsOfSpeech: ['verb'], reading: `${concord}a- (concord) uku- (infinitive)`, parts: 2 });
  }
  return out;
}

/** Adjective prefixes of the classes after a subject or relative concord (mu-, ba-, mi-, li-, ma-, si-, zi-, n-, lu-, bu-, ku-). */
const ADJECTIVE_PREFIXES = ['', 'm', 'mu', 'ba', 'mi', 'li', 'ma', 'si', 'zi', 'n', 'm', 'lu', 'bu', 'ku'];

/**
 * Adjectives and relatives in agreement: a subject or relative concord with the class prefix before the stem
 * (nibahle "you are beautiful": -hle, iluhlaza: -luhlaza, umbalwa: -mbalwa). One part, so that such a word is not
 * read as a verb with an object marker (ni-ba-hle is not -hla "descend").
 */
function adjectiveReadings(word: string): Analysis[] {
  const out: Analysis[] = [];
  for (const concord of [...SUBJECTS, 'o', 'e', 'aba', 'ezi', 'eli', 'esi', 'olu', 'obu', 'oku', 'emi', 'ama', 'aka']) {
    const rest = strip(word, concord);
    if (!rest) continue;
    for (const prefix of new Set(ADJECTIVE_PREFIXES)) {
      const stem = strip(rest, prefix) ?? (prefix === '' ? rest : undefined);
      if (stem && stem.length >= 2) out.push({ lemma: stem, partsOfSpeech: ['adjective'], reading: `${concord}-${prefix ? ` ${prefix}-` : ''} (concord) -${stem}`, parts: 1 });
    }
  }
  return out;
}

/** Every reading of a folded Zulu or Xhosa word (the search keeps those the lexicon holds). */
export function analyseNguni(word: string): Analysis[] {
  if (word.length < 4) return [];
  return [...nounReadings(word), ...adjectiveReadings(word), ...verbReadings(word)];
}
