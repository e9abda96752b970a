// Afrikaans: plurals (-e, -s, -'s), diminutives (-tjie, -jie), inflected adjectives (-e, -ste) and past participles
// (ge-, with a separable particle before it: aangekom), read backwards to the headwords the lexicon must hold
// (rules.ts `Analysis`), with the spelling rules that tie a stem to its suffixed form.
import type { Analysis, LanguageRules } from './rules.ts';

const isVowel = (c: string | undefined): boolean => c !== undefined && 'aeiouy'.includes(c);
/** Separable particles that stand before ge- in a participle (aangekom, opgestaan, uitgevind, teruggekeer). */
const PARTICLES = ['aan', 'af', 'agter', 'by', 'deur', 'in', 'los', 'mee', 'na', 'neer', 'om', 'oor', 'op', 'saam', 'terug', 'toe', 'uit', 'vas', 'voor', 'vry', 'weg'];
/** A stem shorter than this is not proposed. */
const MIN_STEM = 3;

/** A short vowel closed by one consonant (kat, rol, vis): before a suffix its consonant is written double (katte). */
const closedShort = (stem: string): boolean => {
  const n = stem.length;
  return n >= 2 && !isVowel(stem[n - 1]) && isVowel(stem[n - 2]) && !isVowel(stem[n - 3]);
};

/**
 * The stems a form before a vowel-initial suffix can be written from, by Afrikaans spelling: a doubled consonant
 * after a short vowel is one (katte: kat, dikke: dik), a single vowel in the open syllable is a long one written
 * double in the stem (bome: boom, strate: straat, grote: groot), -w- after a long vowel is -f (briewe: brief), and
 * otherwise the stem stands as written (boeke: boek, honde: hond), unless it ends in a short vowel and one consonant,
 * which the suffixed form would have doubled (role is no plural of rol: that is rolle).
 */
function stemsBefore(written: string): string[] {
  const out: string[] = [];
  const n = written.length;
  const last = written[n - 1];
  if (n >= 3 && last === written[n - 2] && !isVowel(last) && closedShort(written.slice(0, -1))) out.push(written.slice(0, -1));
  else if (closedShort(written) && 'aeou'.includes(written[n - 2])) out.push(`${written.slice(0, -1)}${written[n - 2]}${last}`);
  else if (!closedShort(written)) out.push(written);
  if (last === 'w' && n >= 3) out.push(`${written.slice(0, -1)}f`);
  return out.filter((s) => s.length >= MIN_STEM);
}

/** Endings of an unstressed last syllable, which take the -s plural (tafel, kamer, bodem, woning, koppie). */
const UNSTRESSED_END = /(?:el|er|em|en|ing|ie|um)$/;
/** The number of vowel groups: a rough count of syllables. */
const syllables = (word: string): number => (word.match(/[aeiouy]+/g) ?? []).length;

/** Every reading of a folded Afrikaans word. */
export function analyseAfrikaans(word: string): Analysis[] {
  const out: Analysis[] = [];
  const add = (lemma: string, partsOfSpeech: Analysis['partsOfSpeech'], reading: string, parts: number): void => {
    if (lemma.length >= MIN_STEM) out.push({ lemma, partsOfSpeech, reading, parts });
  };
  // -e: a noun's plural or an adjective before its noun.
  if (word.endsWith('e')) for (const stem of stemsBefore(word.slice(0, -1))) add(stem, ['noun', 'adjective'], `${stem} + -e (plural, or an adjective before its noun)`, 1);
  // -s: the plural of a word ending in an unstressed syllable (tafels, kamers, koppies, wonings); a stressed -ie takes
  // -ë (analogieë), and -ies is then an adjective (astronomies). A one-syllable word is too weak a signal beside English.
  const plain = word.slice(0, -1);
  if (/[^'s]s$/.test(word) && UNSTRESSED_END.test(plain) && !(plain.endsWith('ie') && syllables(plain) > 2)) add(plain, ['noun'], `${plain} + -s (plural)`, 1);
  if (/[aeiou]'s$/.test(word)) add(word.slice(0, -2), ['noun'], `${word.slice(0, -2)} + -'s (plural)`, 1);
  if (word.endsWith('iee')) add(word.slice(0, -1), ['noun'], `${word.slice(0, -1)} + -ë (plural)`, 1);
  // -ste: the superlative (grootste: groot, beste is no stem).
  if (word.endsWith('ste')) for (const stem of [word.slice(0, -3)]) add(stem, ['adjective'], `${stem} + -ste (superlative)`, 1);
  // Diminutives: -tjie after a vowel or l, n, r (kaartjie has -jie after t), -etjie after a doubled consonant (balletjie).
  for (const [ending, fit] of [['tjie', /(?:[aeiou]|[lnr])$/], ['jie', /[dt]$/]] as const) {
    for (const plural of ['', 's']) {
      const suffix = `${ending}${plural}`;
      const stem = word.endsWith(suffix) ? word.slice(0, -suffix.length) : '';
      if (fit.test(stem)) add(stem, ['noun'], `${stem} + -${suffix} (diminutive${plural ? ' plural' : ''})`, 1);
    }
  }
  const small = /^(.+)([^aeiou])\2etjies?$/.exec(word);
  if (small) add(`${small[1]}${small[2]}`, ['noun'], `${small[1]}${small[2]} + -etjie (diminutive)`, 1);
  // The past participle: (particle) ge- stem, and its adjectival -de/-te (gekookte: kook).
  for (const particle of ['', ...PARTICLES]) {
    if (!word.startsWith(`${particle}ge`)) continue;
    const rest = word.slice(particle.length + 2);
    const said = particle ? `${particle}- ge- (participle)` : 'ge- (participle)';
    add(`${particle}${rest}`, ['verb'], `${said} ${rest}`, 1);
    if (/[dt]e$/.test(rest)) add(`${particle}${rest.slice(0, -2)}`, ['verb'], `${said} ${rest.slice(0, -2)} -de/-te (adjectival)`, 2);
  }
  return out;
}

export const afrikaans: LanguageRules = {
  analyse: analyseAfrikaans,
};
