// The snapshot's on-disk format, shared by the build (writer) and the reader: version and fixed keys.

/** Bump when the tables or the serialized bodies change; readers refuse other versions. */
export const SNAPSHOT_FORMAT_VERSION = 10;

/** Upper bound of ranked rows per search: every query does bounded work (total is capped here). */
export const MAX_RANKED_ROWS = 1000;

/**
 * Browsing without q is ordered by (browse_key, id) and paged by OFFSET, which SQLite can only step through row
 * by row: page 10,000 of 100 over a million entries would step a million index rows. The build writes every
 * BROWSE_ANCHOR_EVERY-th position of each filter's order to `browse_anchors`; the reader seeks to the
 * anchor at or before a page's offset and steps fewer than this many rows from there.
 */
export const BROWSE_ANCHOR_EVERY = 1000;

/** Kinds of rows in the `forms` lookup table. */
export const FORM_KIND = {
  /** Lower-cased exact form with tones (NFC), and each variant's as written. */
  exact: 0,
  /** Folded headword (snapshot/format/text.ts fold). */
  folded: 1,
  /** Folded variants, and the l/r loose key of Igbo headwords and variants. */
  variant: 2,
  /**
   * The first sense of an entry's first definition, stated plainly (senseKeyParts, snapshot/format/text.ts), so that
   * "woman" finds obìnrin "woman, female" before abo "female, feminine; woman", and "house" huis before huisves "(to)
   * house".
   */
  gloss: 3,
  /** Any other sense: the rest of the first definition's, and those of the next two definitions. */
  glossSense: 4,
  /**
   * The first words of an English gloss (glossStartKeys): "water" then finds "water pot", before glosses that only
   * mention it. The three gloss kinds are adjacent: search reads them for one key in one range (FormLookups.findGloss).
   */
  glossStart: 5,
} as const;

/** Keys of the `meta` table (every one written by the build; the reader and --if-changed read some). */
export const META = {
  formatVersion: 'formatVersion',
  contentHash: 'contentHash',
  builtAt: 'builtAt',
  /** `v<format>-<first 12 hex of the content hash>`. */
  version: 'version',
  sample: 'sample',
  /** The UTC day the materialised word-of-the-day window starts on. */
  anchorDate: 'anchorDate',
  entries: 'entries',
  /** How many entries are common (isCommon): they hold global ranks 1 to this number (ranking puts them first). */
  commonEntries: 'commonEntries',
  /** Checksums of every input (JSON), and one over them all (what --if-changed compares). */
  inputs: 'inputs',
  inputsChecksum: 'inputsChecksum',
} as const;
export type MetaKey = keyof typeof META;

/** Rows of the `bodies` table: response bodies serialized once by the build. */
export const BODY = {
  /** GET /languages. */
  languages: 'languages',
  /** GET /stats. */
  stats: 'stats',
  /** Every corpus with its licence and attribution (the website's /about). */
  sources: 'sources',
} as const;

/** Rows of the `facets` table: one byte per entry for each. */
export const FACET = { language: 'language', partOfSpeech: 'pos' } as const;
/** Labels one byte can code: 0 is the byte of a global rank without an entry. */
export const MAX_FACET_LABELS = 255;
/** The byte of the label at `index` of a facet's stored labels. */
export function facetCode(index: number): number {
  return index + 1;
}

/**
 * Key for "any language" or "any part of speech": in the counts and browse_anchors tables, and as the language
 * of the cross-language word-of-the-day schedule.
 */
export const ANY_FILTER = '*';

/** Tag tokens in the FTS tables, so language and part of speech filter inside FTS5. */
export function languageTag(code: string): string {
  return `l${code.replace(/[^a-z0-9]/g, '')}`;
}
export function partOfSpeechTag(pos: string): string {
  return `p${pos.replace(/[^a-z0-9]/g, '')}`;
}

/** Score weight of each match type: disjoint bands keep the score monotone with the ranking. */
export const MATCH_WEIGHT = { exact: 8, meaning: 7, folded: 6, variant: 5, gloss: 4, form: 3, inflected: 2, prefix: 1 } as const;
