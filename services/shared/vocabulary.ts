// Closed vocabularies shared by the build, the API, the OpenAPI description and the website.

/** One part-of-speech vocabulary for every language; importers map their source's tags onto it. */
export const PARTS_OF_SPEECH = [
  'noun',
  'proper-noun',
  'verb',
  'adjective',
  'adverb',
  'pronoun',
  'numeral',
  'determiner',
  'preposition',
  'conjunction',
  'interjection',
  'particle',
  'affix',
  'phrase',
  'proverb',
  'letter',
  'abbreviation',
  'other',
] as const;
export type PartOfSpeech = (typeof PARTS_OF_SPEECH)[number];

/**
 * How a search result matched, in ranking order: `gloss` is an English meaning (a sense that is the text first,
 * then glosses that begin with it or mention it), ahead of `form` (another form the source lists for the entry: a
 * plural, a possessed or inflected form, a romanisation) and `prefix` (a headword that begins with the text), which
 * only share letters with it. `browse` is the listing without `q` (alphabetical by folded form), where nothing was
 * matched.
 */
export const MATCH_TYPES = ['exact', 'folded', 'variant', 'gloss', 'form', 'prefix', 'browse'] as const;
export type MatchType = (typeof MATCH_TYPES)[number];
