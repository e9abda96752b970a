// Hand-written records for rendering tests: realistic Yoruba data, and hostile strings where a test needs them.
import type { Entry, Language, WordSummary } from '../../services/shared/schemas.ts';
import type { AssetUrls } from '../../services/api/web/layout.ts';

export const ASSETS: AssetUrls = {
  css: '/assets/site.css?v=test',
  js: '/assets/site.js?v=test',
  docsJs: '/assets/docs.js?v=test',
  favicon: '/assets/favicon.svg?v=test',
};

export const LANGUAGES: Language[] = [
  { code: 'ig', slug: 'igbo', name: 'Igbo', nativeName: 'Asụsụ Igbo', status: 'active', wordCount: 8000 },
  { code: 'yo', slug: 'yoruba', name: 'Yoruba', nativeName: 'Èdè Yorùbá', status: 'active', wordCount: 5600 },
  { code: 'ha', slug: 'hausa', name: 'Hausa', nativeName: 'Harshen Hausa', status: 'preparing', wordCount: 0 },
];

const WIKTIONARY = {
  source: {
    id: 'wiktionary-yoruba',
    name: 'Yoruba entries of English Wiktionary',
    url: 'https://en.wiktionary.org/wiki/Category:Yoruba_language',
    attribution: 'Wiktionary contributors, CC BY-SA 4.0, via Wiktextract/kaikki.org.',
  },
  licence: { spdx: 'CC-BY-SA-4.0', name: 'Creative Commons Attribution-ShareAlike 4.0', url: 'https://creativecommons.org/licenses/by-sa/4.0/' },
};

const UD = {
  source: {
    id: 'ud-yoruba-ytb',
    name: 'Universal Dependencies: Yorùbá Dependency Treebank (YTB)',
    url: 'https://github.com/UniversalDependencies/UD_Yoruba-YTB',
    attribution: 'Ishola & Zeman (2020), Yorùbá Dependency Treebank (YTB), LREC 2020, CC BY-SA 4.0.',
  },
  licence: WIKTIONARY.licence,
};
const PRONUNCIATION = {
  source: {
    id: 'wikipron-yo',
    name: 'WikiPron IPA pronunciations (Yoruba)',
    url: 'https://github.com/CUNY-CL/wikipron',
    attribution: 'Pronunciations from English Wiktionary contributors (CC BY-SA), scraped by WikiPron (Lee et al. 2020, CUNY-CL/wikipron).',
  },
  licence: { spdx: 'CC-BY-SA-4.0', name: 'Creative Commons Attribution-ShareAlike 4.0', url: 'https://creativecommons.org/licenses/by-sa/4.0/' },
};

export function yorubaEntry(overrides: Partial<Entry> = {}): Entry {
  return {
    id: 42,
    language: 'yo',
    headword: 'ọmọ',
    exactForm: 'ọmọ',
    slug: 'omo',
    pronunciation: null,
    isCommon: true,
    isVerified: true,
    frequencyRank: 12,
    glosses: ['child', 'offspring'],
    partOfSpeech: 'noun',
    languageName: 'Yoruba',
    etymologyNumber: null,
    senses: [
      { number: 1, definition: 'child' },
      { number: 2, definition: 'offspring' },
    ],
    examples: [
      { text: 'Ọmọ náà ń sùn.', translation: 'The child is sleeping.', reference: 'ytb-12', ...UD },
    ],
    variants: [{ form: 'ọ̀mọ', kind: 'variant', note: null }],
    forms: [{ form: 'ọmọ-ọmọ', kind: 'form' }],
    pronunciations: [{ ipa: 'ɔ̄mɔ̄', ...PRONUNCIATION }],
    derived: [{ form: 'ọmọdé', relation: 'derived', id: 43, slug: 'omode' }],
    related: [{ form: 'ọmọbìnrin', relation: 'see-also', id: null, slug: null }],
    stems: [],
    dialect: null,
    ...WIKTIONARY,
    ...overrides,
  };
}

export function summary(overrides: Partial<WordSummary> = {}): WordSummary {
  return {
    id: 42,
    language: 'yo',
    headword: 'ọmọ',
    exactForm: 'ọmọ',
    slug: 'omo',
    pronunciation: null,
    isCommon: true,
    isVerified: true,
    frequencyRank: 12,
    glosses: ['child'],
    partOfSpeech: 'noun',
    matchType: 'folded',
    score: 4.5,
    ...overrides,
  };
}

export const HOSTILE = `<script>alert("x")</script>"'><img src=x onerror=alert(1)>`;

/** The sequence of heading levels in a page, e.g. [1, 2, 2, 3]. */
export function headingLevels(page: string): number[] {
  return [...page.matchAll(/<h([1-6])\b/g)].map((m) => Number(m[1]));
}

/** Headings never skip a level going down (h1 → h3 is a skip; h3 → h2 is fine). */
export function headingsInOrder(page: string): boolean {
  const levels = headingLevels(page);
  if (levels[0] !== 1 || levels.filter((l) => l === 1).length !== 1) return false;
  return levels.every((level, i) => i === 0 || level <= levels[i - 1] + 1);
}
