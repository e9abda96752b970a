// Yoruba: tones written on every syllable but mid, an old orthography still common in web text, and stand-in
// characters in the NTREX-128 Yoruba file.
import type { LanguageRules } from './rules.ts';

export const yoruba: LanguageRules = {
  // A vowel without a mark is mid; the macron marks mid where it is written.
  tones: { unmarked: 'M', marks: { grave: 'L', acute: 'H', macron: 'M' } },
  oldSpellings: {
    nwon: 'won', // nwọn → wọ́n "they"
    li: 'ni', // li → ní "at, in"
    enia: 'eniyan', // enia → ènìyàn "person"
    enyin: 'eyin', // ẹnyin → ẹ̀yin "you (plural)"
    nyin: 'yin', // nyin → yín "you (plural object)"
  },
  /**
   * Greek koppa typed for ọ (ϙmϙ ẹgbé), upsilon with varia for ù (òmὺgò), and a combining stroke overlay left
   * after ẹ (ẹ̵̀) that no Yoruba letter carries.
   */
  textRepairs: [
    [/ϙ/g, 'ọ', 'Greek koppa (ϙ) read as ọ'],
    [/Ϙ/g, 'Ọ', 'Greek koppa (Ϙ) read as Ọ'],
    [/ὺ/g, 'ù', 'Greek upsilon with varia (ὺ) read as ù'],
    [/\u0335/g, '', 'stray combining stroke overlay (U+0335) removed'],
  ],
  // Yoruba text that writes underdots writes the word's own (ọjọ is not òjò).
  trustsWrittenLetters: true,
};
