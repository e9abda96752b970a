// Response records as zod schemas: the build serializes entries that satisfy them, the API validates with
// them and the OpenAPI description is generated from them (zod-to-json-schema).
import { z } from 'zod';

import { MATCH_TYPES, PARTS_OF_SPEECH } from './vocabulary.ts';

export const LicenceSchema = z.object({
  spdx: z.string().describe('SPDX licence identifier, e.g. CC-BY-SA-4.0'),
  name: z.string().describe('the licence by its full name'),
  url: z.string().describe('where the licence text is published'),
}).describe('the licence the record arrived under: keep it, and the source\'s attribution, with what you show');

export const SourceSchema = z.object({
  id: z.string().describe('source id in the corpus manifest, e.g. igbo-api'),
  name: z.string().describe('the source by name'),
  url: z.string().describe('upstream URL'),
  attribution: z.string().describe('attribution text to show with the entry'),
});

export const WordSummarySchema = z.object({
  id: z.number().int().describe('the entry\'s identifier, stable across snapshots built from the same source record'),
  language: z.string().describe('language code, e.g. ig or yo'),
  headword: z.string().describe('the form the entry is listed under'),
  exactForm: z.string().describe('the tone-marked form exactly as the source gave it (after NFC normalisation)'),
  slug: z.string().describe('URL name of the entry: GET /api/v1/words/{slug} answers as the id does'),
  pronunciation: z.string().nullable().describe('IPA, without slashes: the pronunciation chosen for the entry (full entry: `pronunciations`)'),
  isCommon: z
    .boolean()
    .describe('true when the word is among the 1,000 most frequent forms of its language in the frequency list the snapshot uses (frequencyRank 1 to 1,000)'),
  isVerified: z
    .boolean()
    .describe(
      "true only where the entry's source marks it as reviewed by a person (an edited dictionary that says its " +
        'entries were checked); false otherwise, as for wiki and crowd-sourced entries and for what the build ' +
        'derives (reversed translation pairs, inferred forms). It says who reviewed the entry, not how accurate it is.',
    ),
  frequencyRank: z.number().int().min(1).nullable().describe('place of the form in its language\'s frequency list (1 = most frequent); null when the list does not have it'),
  glosses: z.array(z.string()).describe('English meanings, one per sense, in the source\'s order'),
  partOfSpeech: z.enum(PARTS_OF_SPEECH).describe('the word class, mapped from the source\'s tags onto one vocabulary for every language'),
  matchType: z
    .enum(MATCH_TYPES)
    .describe(
      'how the entry matched q, in ranking order: exact (the form as written, tone marks included); meaning (an ' +
        'English sense of the entry is q: "dog" finds mbwa); folded (the same letters without tone marks, underdots ' +
        'or hooked letters); variant (a variant or another standard spelling of the headword); gloss (an English ' +
        'meaning that begins with q or contains its words); form (a plural, inflected form, romanisation or other ' +
        'form the source lists); inflected (q read by the language\'s rules as an inflected form of the entry, which ' +
        'the lexicon holds with the part of speech the rules ask: Swahili ninakula finds kula, Zulu abantu umuntu, ' +
        'Igbo nwere -nwe; only when q matched nothing above, and below the forms a source lists); prefix (a headword or variant that starts with q, or ' +
        'contains it as a word); ' +
        'browse (no q: the language listed alphabetically, nothing matched)',
    ),
  score: z
    .number()
    .describe(
      'relevance within this result set, higher first: the band of the matchType (exact 8, meaning 7, folded 6, ' +
        'variant 5, gloss 4, form 3, inflected 2, prefix 1) plus a fraction for the place inside it; 0 when browsing. Compare ' +
        'scores within one query only',
    ),
});
export type WordSummary = z.infer<typeof WordSummarySchema>;

export const WordsPageSchema = z.object({
  data: z.array(WordSummarySchema).describe('the requested slice, best match first'),
  total: z.number().int().min(0).describe('matches across all pages, not the length of data (at most 1,000 ranked matches: see diagnostics)'),
  page: z.number().int().min(1).describe('1-based page number'),
  perPage: z.number().int().min(1).describe('the limit the response was produced with'),
  hasMore: z.boolean().describe('true when a further page exists: page through until it is false'),
  diagnostics: z
    .record(z.unknown())
    .optional()
    .describe(
      'present only when the answer is not the whole story: {"truncated": true, "rankedLimit": 1000} when q matched ' +
        'more entries than are ranked; total is then the limit, and a more precise q finds the rest. "suggestions" when ' +
        'q found fewer than 3 entries, none spelt as q (exact, folded or variant), and not with scope meaning: up to 5 headwords and forms of the language ' +
        'asked for (of any language without one) near q, nearest first, the commoner first at one distance, each ' +
        '{"text": the form as the dictionary writes it, "query": the q that finds it, "language": its code, ' +
        '"distance": 1 or 2}. Distance is edits (a letter dropped, added, changed, or two neighbours swapped) on the ' +
        'folded form (no tone marks, underdots or hooked letters): one edit, and for q of 6 to 10 letters also two ' +
        'edits of which one drops a letter or swaps two',
    ),
});
export type WordsPage = z.infer<typeof WordsPageSchema>;

export const SenseSchema = z.object({
  number: z.number().int().min(1).describe('1-based, in the source\'s order'),
  definition: z.string().describe('the meaning in English, with the source\'s labels in brackets'),
  // Present when the sense comes from another source than the entry's (EntrySchema.senses says so).
  source: SourceSchema.optional(),
  licence: LicenceSchema.optional(),
});

export const ExampleSchema = z.object({
  text: z.string().describe('a sentence in the entry\'s language that uses the word'),
  translation: z.string().nullable().describe('its English translation, when the source gives one'),
  reference: z.string().nullable().describe('where the sentence comes from, e.g. a treebank sentence id'),
  source: SourceSchema,
  licence: LicenceSchema,
});

export const VariantSchema = z.object({
  form: z.string().describe('the other spelling; a search for it finds the entry (matchType variant)'),
  kind: z
    .enum(['variant', 'alternative-spelling', 'standard-spelling'])
    .describe('standard-spelling: the Standard Igbo spelling of an Onitsha form, derived by rule and attested in Standard Igbo text'),
  note: z.string().nullable().describe('where a derived spelling comes from: its rules and the text that attests it'),
});

export const FormSchema = z.object({
  form: z.string().describe('the form as the source gives it'),
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

export const InflectedFormSchema = z.object({
  form: z.string(),
  features: z.string().describe('UniMorph features, e.g. V;1;SG;PRS'),
});

export const InflectionTableSchema = z.object({
  total: z.number().int().min(1).describe('forms in the table, each found by search (matchType form)'),
  forms: z.array(InflectedFormSchema).describe('its first 12'),
  source: SourceSchema,
  licence: LicenceSchema,
});

export const PronunciationSchema = z.object({
  ipa: z.string().describe('IPA, without slashes'),
  source: SourceSchema,
  licence: LicenceSchema,
});

export const RelatedFormSchema = z.object({
  form: z.string().describe('the related word as the source names it'),
  relation: z.enum(['derived', 'see-also', 'component']).describe('derived: made from this word; see-also: a word the source points to; component: a part this word is made of'),
  /** Set when the form is itself an entry of the snapshot. */
  id: z.number().int().nullable().describe('the entry of that word, when the snapshot has it; else null'),
  slug: z.string().nullable().describe('that entry\'s slug, or null'),
});

export const DialectSchema = z.object({
  name: z.string().describe('the dialect, e.g. Onitsha'),
  note: z.string().describe('what that means for the entry, in a sentence or two to show with it'),
});

export const EntrySchema = WordSummarySchema.omit({ matchType: true, score: true }).extend({
  languageName: z.string().describe('the language\'s English name'),
  etymologyNumber: z
    .number()
    .int()
    .nullable()
    .describe('homograph number: entries spelled alike with different origins are numbered 1, 2, … in the source\'s order; null when the word has no homograph'),
  senses: z
    .array(SenseSchema)
    .describe('the meanings, numbered; one from another source carries its source and licence'),
  examples: z.array(ExampleSchema).describe('sentences that use the word, each with its own source and licence'),
  variants: z.array(VariantSchema).describe('other spellings of the headword'),
  forms: z.array(FormSchema).describe('other forms the source lists; a search for one finds the entry (matchType form)'),
  inflections: z
    .array(InflectionTableSchema)
    .optional()
    .describe('inflection tables (UniMorph), one per source; absent when none'),
  pronunciations: z.array(PronunciationSchema).describe('every pronunciation found for the entry, the chosen one first'),
  derived: z.array(RelatedFormSchema).describe('words made from this one'),
  related: z.array(RelatedFormSchema).describe('words the source points to'),
  stems: z.array(z.string()).describe('the stems or roots the source gives for the word'),
  dialect: DialectSchema.nullable().describe(
    'the dialect the entry records, where its lexicon records one dialect rather than the standard language ' +
      '(every entry of the Igbo lexicon, Williamson\'s Dictionary of Ònìchà Igbo, is Onitsha Igbo); null otherwise',
  ),
  source: SourceSchema.describe('where the entry comes from: show its attribution with the entry'),
  licence: LicenceSchema.describe('the licence of this entry (entries differ: CC BY-SA, Apache-2.0, GPL and others); examples and pronunciations carry their own'),
});
export type Entry = z.infer<typeof EntrySchema>;

export const WordOfTheDaySchema = z.object({
  date: z.string().describe('UTC day, YYYY-MM-DD'),
  language: z.string().describe('the language asked for, or "*" when the word is drawn across the active languages'),
  entry: EntrySchema.describe('the day\'s word: a common word fit for a classroom, with a meaning of its own, not repeated within 366 days'),
});
export type WordOfTheDay = z.infer<typeof WordOfTheDaySchema>;

export const LanguageSchema = z.object({
  code: z.string().describe('ISO 639-1 code, or ISO 639-3 where there is none (tzm)'),
  slug: z.string().describe('URL name of the language; the language parameters take it as they take the code'),
  name: z.string().describe('English name'),
  nativeName: z.string().describe('the language\'s name for itself'),
  status: z
    .enum(['active', 'preparing'])
    .describe('active once the snapshot holds at least 1,000 of its entries with an English gloss; preparing languages report wordCount 0'),
  wordCount: z.number().int().min(0).describe('entries of the language in this snapshot, read from stored data'),
});
export type Language = z.infer<typeof LanguageSchema>;

export const LanguagesSchema = z.object({ data: z.array(LanguageSchema).describe('every language, active and preparing') });

export const StatsSchema = z.object({
  totals: z.object({
    entries: z.number().int().describe('entries served'),
    examples: z.number().int().describe('example sentences attached to entries'),
    sources: z.number().int().describe('sources that gave the snapshot records'),
    languages: z.number().int().describe('languages listed, active and preparing'),
    activeLanguages: z.number().int().describe('languages searchable now'),
  }).describe('counts over the whole snapshot'),
  entriesByLanguage: z.record(z.number().int()).describe('entries per language code'),
  entriesByPartOfSpeech: z.record(z.record(z.number().int())).describe('entries per language code, then per part of speech'),
  snapshot: z.object({
    version: z.string().describe('the snapshot\'s version: v<format>-<first 12 hex digits of the content hash>'),
    formatVersion: z.number().int().describe('version of the snapshot file format'),
    contentHash: z.string().describe('sha256 over the content served: equal hashes, equal answers'),
    builtAt: z.string().describe('when the snapshot was built (ISO 8601, UTC)'),
    sample: z.boolean().describe('true when built from the bundled sample corpus, not the real corpora'),
  }),
});
export type Stats = z.infer<typeof StatsSchema>;
