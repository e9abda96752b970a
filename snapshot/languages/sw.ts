// Swahili: FreeDict gives verbs as stems (la, enda, nywa) and adjectives as bare stems (zuri); people look up the
// infinitive (kula, kwenda, kunywa) and the class forms (nzuri, mzuri, kizuri).
import type { LanguageRules } from './rules.ts';
import { analyseSwahili } from './sw-inflection.ts';

/** Vowel-initial stems whose infinitive is written with kw- (kwenda, kwisha), not ku- (kuanza, kuimba, kuona). */
const KW_INFINITIVES = new Set(['enda', 'isha']);

/**
 * The infinitive of a verb stem: ku- before it (kula, kunywa, kusoma, kuanza), kw- before the stems that take it
 * (KW_INFINITIVES). A multiword verb (enda na, piga kura) takes the prefix on its first word.
 */
export function infinitive(stem: string): string {
  const [first, ...rest] = stem.split(' ');
  return [`${KW_INFINITIVES.has(first) ? 'kw' : 'ku'}${first}`, ...rest].join(' ');
}

/** Noun-class agreement prefixes of adjectives before a consonant: m-/wa- (1/2), m-/mi- (3/4), ma- (6), ki-/vi- (7/8), pa-/ku- (16/17). */
const CONSONANT_PREFIXES = ['m', 'wa', 'mi', 'ma', 'ki', 'vi', 'pa', 'ku'];
/**
 * The same prefixes before a vowel: the prefix's i or u becomes a glide (mwema, myeupe, cheupe, vyeupe, kweupe), and
 * the a of wa-/ma-/pa- merges with a following i or e into e (wengi, mengi, weupe, meupe).
 */
const VOWEL_PREFIXES: readonly ((stem: string) => string)[] = [
  (s) => `mw${s}`,
  (s) => (s.startsWith('i') ? `we${s.slice(1)}` : s.startsWith('e') ? `w${s}` : `wa${s}`),
  (s) => (s.startsWith('i') ? `m${s}` : `my${s}`),
  (s) => (s.startsWith('i') ? `me${s.slice(1)}` : s.startsWith('e') ? `m${s}` : `ma${s}`),
  (s) => (s.startsWith('i') ? `k${s}` : `ch${s}`),
  (s) => (s.startsWith('i') ? `v${s}` : `vy${s}`),
  (s) => (s.startsWith('i') ? `pe${s.slice(1)}` : s.startsWith('e') ? `p${s}` : `pa${s}`),
  (s) => `kw${s}`,
];

/** The class 9/10 form: the nasal n- as it meets the stem (nzuri, ndogo, mbaya, mpya, ndefu, nyingi, kubwa). */
function nasalForm(stem: string): string {
  if (/^[aeiou]/.test(stem)) return `ny${stem}`;
  if (/^[dgjz]/.test(stem)) return `n${stem}`;
  if (/^[bpv]/.test(stem)) return `m${stem}`;
  if (/^[lr]/.test(stem)) return `nd${stem.slice(1)}`;
  if (/^w/.test(stem)) return `mb${stem.slice(1)}`;
  return stem;
}

/** Every class form of an adjective stem (candidates: the build keeps those Swahili text attests). */
export function classForms(stem: string): string[] {
  const out = new Set<string>();
  const vowel = /^[aeiou]/.exec(stem)?.[0];
  if (vowel) for (const join of VOWEL_PREFIXES) out.add(join(stem));
  else for (const prefix of CONSONANT_PREFIXES) out.add(`${prefix}${stem}`);
  out.add(nasalForm(stem));
  out.delete(stem);
  return [...out];
}

export const swahili: LanguageRules = {
  verbCitation: infinitive,
  classForms,
  analyse: analyseSwahili,
};
