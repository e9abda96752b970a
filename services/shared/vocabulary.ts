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
 * How a search result matched, in ranking order: `form` is another form the source lists for the entry (a
 * plural, a possessed or inflected form, a romanisation, a tone-marked spelling). `browse` is the listing without `q`
 * (alphabetical by folded form), where nothing was matched.
 */
export const MATCH_TYPES = ['exact', 'folded', 'variant', 'form', 'prefix', 'gloss', 'browse'] as const;
export type MatchType = (typeof MATCH_TYPES)[number];
