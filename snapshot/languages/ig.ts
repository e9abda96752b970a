// Igbo: the lexicon is Kay Williamson's Dictionary of Ònìchà Igbo, in Onitsha spelling (docs/standard-igbo.md,
// docs/normalisation.md), so a search in today's Standard Igbo must reach its entries.
import { analyseIgbo } from './ig-inflection.ts';
import type { LanguageRules, SpellingRule } from './rules.ts';

/**
 * Regular correspondences between Onitsha and Standard Igbo spelling, on folded forms (docs/standard-igbo.md):
 * Onitsha l where Standard has r (mmilī ~ mmiri, ọlụ ~ ọrụ), f where Standard has h (ife ~ ihe, fa ~ ha,
 * afịa ~ ahịa), n between vowels where Standard has l (enū ~ elu, àná ~ ala), and nn where Standard has nr
 * (nni ~ nri). Each is written both ways: `lexicon` finds the places in an Onitsha form, `standard` those in a
 * Standard one (the build starts from the attested Standard words, far fewer than the entries).
 */
const ONITSHA_TO_STANDARD: readonly SpellingRule[] = [
  { name: 'l → r', lexicon: /l/g, standard: /r/g, from: 'l', to: 'r' },
  { name: 'f → h', lexicon: /f/g, standard: /h/g, from: 'f', to: 'h' },
  { name: 'n → l between vowels', lexicon: /(?<=[aeiou])n(?=[aeiou])/g, standard: /(?<=[aeiou])l(?=[aeiou])/g, from: 'n', to: 'l' },
  { name: 'nn → nr', lexicon: /nn(?=[aeiou])/g, standard: /nr(?=[aeiou])/g, from: 'nn', to: 'nr' },
];

export const igbo: LanguageRules = {
  // Williamson's Onitsha spelling writes ŋ where Standard Igbo writes ṅ; both fold to n.
  foldLetters: { ŋ: 'n' },
  /**
   * The folded form with r written as l: Onitsha writes l where Standard Igbo writes r (`mmilī` ~ `mmiri`,
   * `ọlū` ~ `ọrụ`), so the standard spelling still reaches the entry. Igbo only: in Yoruba, r and l tell words
   * apart (`orí` head), and a loose match there would only add noise.
   */
  looseKey: (folded) => folded.replace(/r/g, 'l'),
  standardSpellings: {
    name: 'Standard Igbo',
    rules: ONITSHA_TO_STANDARD,
    note: (rules, attestedIn) => `Standard Igbo spelling derived from the Onitsha form by ${rules.join(', ')} (docs/standard-igbo.md); attested in ${attestedIn}.`,
  },
  // Standard Igbo is written without tones (docs/standard-igbo.md).
  textWritesTones: false,
  analyse: analyseIgbo,
};
