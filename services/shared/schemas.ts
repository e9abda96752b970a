// Response records as zod schemas: the build serializes entries that satisfy them, the API validates with
// them and the OpenAPI description is generated from them (zod-to-json-schema).
import { z } from 'zod';

import { MATCH_TYPES, PARTS_OF_SPEECH } from './vocabulary.ts';

export const LicenceSchema = z.object({
  spdx: z.string().describe('SPDX licence identifier, e.g. CC-BY-SA-4.0'),
  name: z.string(),
  url: z.string(),
});

export const SourceSchema = z.object({
  id: z.string().describe('source id in the corpus manifest, e.g. igbo-api'),
  name: z.string(),
  url: z.string().describe('upstream URL'),
  attribution: z.string().describe('attribution text to show with the entry'),
});

export const WordSummarySchema = z.object({
  id: z.number().int(),
  language: z.string().describe('language code, e.g. ig or yo'),
  headword: z.string(),
  exactForm: z.string().describe('the tone-marked form exactly as the source gave it (after NFC normalisation)'),
  slug: z.string(),
  pronunciation: z.string().nullable().describe('IPA, without slashes: the pronunciation chosen for the entry (full entry: `pronunciations`)'),
  isCommon: z.boolean(),
  isVerified: z
    .boolean()
    .describe(
      "true only where the entry's source marks it as reviewed by a person (an edited dictionary that says its " +
        'entries were checked); false otherwise, as for wiki and crowd-sourced entries and for what the build ' +
        'derives (reversed translation pairs, inferred forms). It says who reviewed the entry, not how accurate it is.',
    ),
  frequencyRank: z.number().int().min(1).nullable(),
  glosses: z.array(z.string()),
  partOfSpeech: z.enum(PARTS_OF_SPEECH),
  matchType: z.enum(MATCH_TYPES),
  score: z.number(),
});
export type WordSummary = z.infer<typeof WordSummarySchema>;

export const WordsPageSchema = z.object({
  data: z.array(WordSummarySchema),
  total: z.number().int().min(0),
  page: z.number().int().min(1),
  perPage: z.number().int().min(1),
  hasMore: z.boolean(),
  diagnostics: z.record(z.unknown()).optional(),
});
export type WordsPage = z.infer<typeof WordsPageSchema>;

export const SenseSchema = z.object({
  number: z.number().int().min(1),
  definition: z.string(),
});

export const ExampleSchema = z.object({
  text: z.string(),
  translation: z.string().nullable(),
  reference: z.string().nullable().describe('where the sentence comes from, e.g. a treebank sentence id'),
  source: SourceSchema,
  licence: LicenceSchema,
});

export const VariantSchema = z.object({
  form: z.string(),
  kind: z
    .enum(['variant', 'alternative-spelling', 'standard-spelling'])
    .describe('standard-spelling: the Standard Igbo spelling of an Onitsha form, derived by rule and attested in Standard Igbo text'),
  note: z.string().nullable().describe('where a derived spelling comes from: its rules and the text that attests it'),
});

export const FormSchema = z.object({
  form: z.string(),
  kind: z
    .enum(['tone-marked', 'spelling', 'romanisation', 'other-script', 'plural', 'form', 'stem', 'class-form'])
    .describe(
      'tone-marked: the headword with tone marks; spelling: another spelling the source lists (e.g. the page title); ' +
        'romanisation: the word in Latin letters (Ge\'ez-script languages); other-script: the word in another script ' +
        '(Ajami, Tifinagh); plural; form: another form the source lists without a label (plural, possessed or inflected form); ' +
        'stem: the stem the source gives for a verb served by its infinitive (Swahili la for kula); class-form: an ' +
        'adjective in a noun class, derived by rule and attested in the language\'s text (Swahili nzuri, mzuri for zuri)',
    ),
});

export const PronunciationSchema = z.object({
  ipa: z.string().describe('IPA, without slashes'),
  source: SourceSchema,
  licence: LicenceSchema,
});

export const RelatedFormSchema = z.object({
  form: z.string(),
  relation: z.enum(['derived', 'see-also', 'component']),
  /** Set when the form is itself an entry of the snapshot. */
  id: z.number().int().nullable(),
  slug: z.string().nullable(),
});

export const DialectSchema = z.object({
  name: z.string().describe('the dialect, e.g. Onitsha'),
  note: z.string().describe('what that means for the entry, in a sentence or two to show with it'),
});

export const EntrySchema = WordSummarySchema.omit({ matchType: true, score: true }).extend({
  languageName: z.string(),
  etymologyNumber: z.number().int().nullable(),
  senses: z.array(SenseSchema),
  examples: z.array(ExampleSchema),
  variants: z.array(VariantSchema),
  forms: z.array(FormSchema).describe('other forms the source lists; a search for one finds the entry (matchType form)'),
  pronunciations: z.array(PronunciationSchema).describe('every pronunciation found for the entry, the chosen one first'),
  derived: z.array(RelatedFormSchema),
  related: z.array(RelatedFormSchema),
  stems: z.array(z.string()),
  dialect: DialectSchema.nullable().describe(
    'the dialect the entry records, where its lexicon records one dialect rather than the standard language ' +
      '(every entry of the Igbo lexicon, Williamson\'s Dictionary of Ònìchà Igbo, is Onitsha Igbo); null otherwise',
  ),
  source: SourceSchema,
  licence: LicenceSchema,
});
export type Entry = z.infer<typeof EntrySchema>;

export const WordOfTheDaySchema = z.object({
  date: z.string().describe('UTC day, YYYY-MM-DD'),
  language: z.string(),
  entry: EntrySchema,
});
export type WordOfTheDay = z.infer<typeof WordOfTheDaySchema>;

export const LanguageSchema = z.object({
  code: z.string().describe('ISO 639-1 code, or ISO 639-3 where there is none (tzm)'),
  slug: z.string(),
  name: z.string().describe('English name'),
  nativeName: z.string(),
  status: z
    .enum(['active', 'preparing'])
    .describe('active once the snapshot holds at least 1,000 of its entries with an English gloss; preparing languages report wordCount 0'),
  wordCount: z.number().int().min(0),
});
export type Language = z.infer<typeof LanguageSchema>;

export const LanguagesSchema = z.object({ data: z.array(LanguageSchema) });

export const StatsSchema = z.object({
  totals: z.object({
    entries: z.number().int(),
    examples: z.number().int(),
    sources: z.number().int(),
    languages: z.number().int(),
    activeLanguages: z.number().int(),
  }),
  entriesByLanguage: z.record(z.number().int()),
  entriesByPartOfSpeech: z.record(z.record(z.number().int())),
  snapshot: z.object({
    version: z.string(),
    formatVersion: z.number().int(),
    contentHash: z.string(),
    builtAt: z.string(),
    sample: z.boolean().describe('true when built from the bundled sample corpus, not the real corpora'),
  }),
});
export type Stats = z.infer<typeof StatsSchema>;
