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
 * How a search result matched, in ranking order: `exact` (the text as the entry is written), `meaning` (an English
 * sense of the entry is the text: "dog" finds mbwa), `folded` (the entry's letters without tone marks and underdots),
 * `variant` (a variant spelling), `gloss` (an English gloss that begins with the text or mentions it), `form`
 * (another form the source lists for the entry: a plural, a possessed or inflected form, a romanisation), `inflected`
 * (the text read as an inflected form of the entry by the language's rules: Swahili ninakula finds kula) and `prefix`
 * (a headword that begins with the text). `browse` is the listing without `q` (alphabetical by browse key: the
 * folded headword from its first letter), where nothing was matched.
 */
export const MATCH_TYPES = ['exact', 'meaning', 'folded', 'variant', 'gloss', 'form', 'inflected', 'prefix', 'browse'] as const;
export type MatchType = (typeof MATCH_TYPES)[number];

/**
 * What a search's text is matched with: `all` (the default) every match type; `headword` the words of the language
 * (exact, folded, variant, form, inflected, prefix: the text is a word of the language); `meaning` the English meanings
 * (meaning, gloss: the text is English).
 */
export const SEARCH_SCOPES = ['all', 'headword', 'meaning'] as const;
export type SearchScope = (typeof SEARCH_SCOPES)[number];
