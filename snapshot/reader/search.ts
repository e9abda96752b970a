// Search over a snapshot: exact > meaning > folded > variant > gloss > form > inflected > prefix, each in global rank
// order, bounded.
import type Database from 'better-sqlite3';

import { Lru } from '../../services/shared/lru.ts';
import type { WordSummary } from '../../services/shared/schemas.ts';
import { fold, glossKey, glossTokens, normalise, searchTokens } from '../format/text.ts';
import { looseKeysOf } from '../languages/index.ts';
import type { MatchType } from '../../services/shared/vocabulary.ts';
import { EntryFacets } from './entry-facets.ts';
import { FormLookups } from './form-lookups.ts';
import { InflectedForms } from './inflected.ts';
import { hasSurrogate } from '../format/key-filter.ts';
import { letterMarkDifferences, writesLetterMarks, writesToneMarks } from '../format/letter-marks.ts';
import { ANY_FILTER, BROWSE_ANCHOR_EVERY, FORM_KIND, MATCH_WEIGHT, MAX_RANKED_ROWS } from '../format/format.ts';
import { matchExpression } from './fts-query.ts';
import { FtsTerms, SEARCHED_COLUMNS } from '../format/fts-terms.ts';
import type { MatchFilters } from './fts-query.ts';
import type { BrowseLetter, SearchPage, SearchQuery, SearchScope } from './snapshot.ts';
import { FORMS_FILTER, OTHER_FORMS_FILTER, loadKeyFilters } from '../format/stored-filters.ts';
import { OtherForms } from './other-forms.ts';
import { SummaryStore } from './summaries.ts';
import { SUGGEST_BELOW_RESULTS, suggestionsFor } from './suggestions.ts';
import type { Suggestion } from './suggestions.ts';
import type { SummaryBytes } from './summaries.ts';

/**
 * Ranked result lists kept per (text, language, part of speech), from a key's second search on (see Lru):
 * a query's later pages reuse one.
 */
const RANKED_CACHE_ENTRIES = 2000;
/** Gloss prefixes shorter than this match whole words only ("a" would match half the dictionary). */
const MIN_GLOSS_PREFIX_CHARS = 3;

interface Ranked {
  globalRanks: number[];
  /** Per global rank, what its item carries after the summary's fields (see ITEM_SUFFIXES). */
  suffixes: string[];
  truncated: boolean;
  /** Computed on the list's first page asked for (suggestions.ts). */
  suggestions?: readonly Suggestion[];
}

type RankedType = Exclude<MatchType, 'browse'>;

/**
 * What follows an item's stored summary fields (its own closing brace dropped): `,"matchType":"…","score":…}`.
 * The score is monotone with the order: the MATCH_WEIGHT band of the type, minus the position inside the type
 * (1 to MAX_RANKED_ROWS + 1). Every (type, position) has one text, built here once instead of formatting a
 * number per item of every page.
 */
const ITEM_SUFFIXES: Readonly<Record<RankedType, readonly string[]>> = Object.fromEntries(
  (Object.keys(MATCH_WEIGHT) as RankedType[]).map((type) => [
    type,
    Array.from({ length: MAX_RANKED_ROWS + 2 }, (_, position) => itemSuffix(type, MATCH_WEIGHT[type] + 1 - position / (MAX_RANKED_ROWS + 2))),
  ]),
) as Record<RankedType, string[]>;
const BROWSE_SUFFIX = itemSuffix('browse', 0);
/**
 * A list's first item with one of these found the query as a word or a meaning (ranked first when any is found): no
 * slip of the keyboard to suggest for. A query that found only gloss mentions or longer headwords may be one. Kept
 * to those: suggestions cost a millisecond or more, and computed for every query with few results they made the
 * bench's search mix several times slower (`npm run bench -- --only search`).
 */
const WRITTEN_SO: ReadonlySet<string> = new Set(
  (['exact', 'meaning', 'folded', 'variant', 'form', 'inflected'] as const).flatMap((type) => ITEM_SUFFIXES[type]),
);

function itemSuffix(matchType: MatchType, score: number): string {
  return `,"matchType":"${matchType}","score":${score}}`;
}
type Stmt = Database.Statement<unknown[], { globalRank: number }>;
/** An FTS statement in pluck mode: expression → at most MAX_RANKED_ROWS + 1 rowids, which are global ranks. */
type FtsStmt = Database.Statement<[string], number>;

/** A full-text index: its statement, the columns text is searched in, and its terms when held (FtsTerms). */
interface FtsIndex {
  stmt: FtsStmt;
  columns: readonly string[];
  /** Undefined: every statement runs. */
  terms: FtsTerms | undefined;
}

/**
 * A page of results: the stored summaries' bytes, each with matchType and score spliced in as text when
 * written (the same bytes as parsing it and serialising `{...summary, matchType, score}`, without doing
 * either per row), parsed only on demand.
 */
/** A letter of the letter index: browse keys that start with one open a letter's run. */
const LETTER = /^\p{L}$/u;

class RankedPage implements SearchPage {
  #items: WordSummary[] | undefined;
  readonly itemsByteLength: number;

  constructor(
    readonly total: number,
    private readonly summaries: readonly SummaryBytes[],
    /** Per item, what follows the summary's fields: `,"matchType":"…","score":…}`. */
    private readonly suffixes: readonly string[],
    readonly truncated: boolean,
    readonly suggestions: readonly Suggestion[] = [],
  ) {
    // Each summary without its closing brace, its suffix, and a comma between items.
    let length = Math.max(0, summaries.length - 1);
    for (let i = 0; i < summaries.length; i++) length += summaries[i].end - summaries[i].start - 1 + suffixes[i].length;
    this.itemsByteLength = length;
  }

  get count(): number {
    return this.summaries.length;
  }

  writeItems(target: Buffer, at: number): number {
    for (let i = 0; i < this.summaries.length; i++) {
      if (i > 0) target[at++] = COMMA;
      const { source, start, end } = this.summaries[i];
      at += source.copy(target, at, start, end - 1);
      // The suffix is ASCII: matchType is one of a few words and score a number.
      at += target.write(this.suffixes[i], at, 'latin1');
    }
    return at;
  }

  get items(): WordSummary[] {
    if (this.#items === undefined) {
      const bytes = Buffer.allocUnsafe(this.itemsByteLength);
      this.writeItems(bytes, 0);
      this.#items = JSON.parse(`[${bytes.toString('utf8')}]`) as WordSummary[];
    }
    return this.#items;
  }
}

const COMMA = 0x2c;

/** Text an English meaning can be: Latin letters without marks, digits, spaces, hyphens and apostrophes. */
const ENGLISH_TEXT = /^[a-z0-9][a-z0-9 '’-]*$/i;

export interface SearchOptions {
  /** Bytes of word summaries held in memory (see SummaryStore). */
  summaryBudgetBytes?: number;
  /** Global ranks 1 to this are the common entries (meta commonEntries): a common word's meaning comes first. */
  commonEntries?: number;
}

export class SnapshotSearch {
  private readonly browseStatements = new Map<string, Stmt>();
  private readonly letters = new Map<string, BrowseLetter[]>();
  private readonly head: FtsIndex;
  private readonly gloss: FtsIndex;
  private readonly summaries: SummaryStore;
  private readonly count: Database.Statement<[string, string], { n: number }>;
  private readonly anchor: Database.Statement<[string, string, number], { browseKey: string; id: number }>;
  private readonly ranked = new Lru<Ranked>(RANKED_CACHE_ENTRIES, { secondSighting: true });
  private readonly forms: FormLookups;
  private readonly otherForms: OtherForms;
  private readonly inflected: InflectedForms;
  private readonly facets: EntryFacets;
  private readonly commonEntries: number;

  constructor(
    private readonly db: Database.Database,
    { summaryBudgetBytes, commonEntries = 0 }: SearchOptions = {},
  ) {
    // LIMITs are written into the SQL, never bound: SQLite plans with the LIMIT's value, so binding one marks
    // the statement for a re-prepare (parse and plan again) on every execution.
    const ftsSql = (table: string): string => `SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid LIMIT ${MAX_RANKED_ROWS + 1}`;
    const filters = loadKeyFilters(db.name);
    const index = (table: keyof typeof SEARCHED_COLUMNS): FtsIndex => ({
      stmt: db.prepare(ftsSql(table)).pluck() as FtsStmt,
      columns: SEARCHED_COLUMNS[table],
      terms: FtsTerms.over(db, table, filters.get(table)),
    });
    this.head = index('head_fts');
    this.gloss = index('gloss_fts');
    this.forms = new FormLookups(db, filters.get(FORMS_FILTER));
    this.otherForms = new OtherForms(db, filters.get(OTHER_FORMS_FILTER));
    this.summaries = new SummaryStore(db, summaryBudgetBytes);
    this.inflected = new InflectedForms(this.forms, this.summaries);
    this.count = db.prepare('SELECT n FROM counts WHERE language = ? AND pos = ?');
    this.anchor = db.prepare('SELECT browse_key AS browseKey, id FROM browse_anchors WHERE language = ? AND pos = ? AND position = ?');
    this.facets = new EntryFacets(db);
    this.commonEntries = commonEntries;
  }

  search(query: SearchQuery): SearchPage {
    const text = query.q === undefined ? '' : normalise(query.q.replace(/\0/g, ' '));
    if (text === '') return this.browse(query);
    const filters: MatchFilters = { language: query.language, partOfSpeech: query.partOfSpeech };
    const scope = query.scope ?? 'all';
    const cacheKey = `${text}\u0000${query.language ?? ''}\u0000${query.partOfSpeech ?? ''}\u0000${scope}`;
    let ranked = this.ranked.get(cacheKey);
    if (!ranked) {
      ranked = this.rank(text, filters, scope);
      this.ranked.set(cacheKey, ranked);
    }
    const start = (query.page - 1) * query.limit;
    const end = Math.min(ranked.globalRanks.length, start + query.limit);
    const summaries: SummaryBytes[] = [];
    for (let i = start; i < end; i++) summaries.push(this.summaries.get(ranked.globalRanks[i]));
    // A query that found few entries, none of them as a word or a meaning, may be a slip of the keyboard: the nearest forms.
    ranked.suggestions ??= ranked.globalRanks.length < SUGGEST_BELOW_RESULTS && scope !== 'meaning' && !WRITTEN_SO.has(ranked.suffixes[0] ?? '')
      ? suggestionsFor(text, query.language, new Set(ranked.globalRanks), { forms: this.forms, otherForms: this.otherForms, summaries: this.summaries })
      : [];
    return new RankedPage(ranked.globalRanks.length, summaries, ranked.suffixes.slice(start, end), ranked.truncated, ranked.suggestions);
  }

  /**
   * Entries matching the FTS expression built from `alternatives`, in rank order, at most the bound. The
   * language and part-of-speech filters are applied to the rows here, not as tag tokens inside FTS5 (an AND
   * with a tag's doclist costs far more than filtering the rows in memory); only when there are more matches
   * than the bound, so that filtered rows may lie beyond it, does FTS5 filter by tag.
   */
  private fts({ stmt, columns, terms }: FtsIndex, alternatives: readonly (readonly string[])[], filters: MatchFilters, lastIsPrefix: boolean): number[] {
    if (terms && !terms.mayMatch(alternatives, lastIsPrefix)) return [];
    const expression = matchExpression(columns, alternatives, {}, lastIsPrefix);
    if (expression === null) return [];
    const globalRanks = stmt.all(expression);
    if (!filters.language && !filters.partOfSpeech) return globalRanks;
    if (globalRanks.length <= MAX_RANKED_ROWS) return this.facets.filter(globalRanks, filters);
    const tagged = matchExpression(columns, alternatives, filters, lastIsPrefix);
    return tagged === null ? [] : stmt.all(tagged);
  }

  /**
   * Collects at most MAX_RANKED_ROWS + 1 distinct entries, best match type first, global rank order inside; `scope`
   * keeps to headwords (exact, folded, variant, form, inflected, prefix) or to English meanings (meaning, gloss).
   */
  private rank(text: string, filters: MatchFilters, scope: SearchScope): Ranked {
    const exact = text.toLowerCase();
    const folded = fold(text);
    // The languages' loose keys of the text (snapshot/languages: Igbo's l/r key), where they differ from it.
    const looseKeys = looseKeysOf(folded);
    const key = glossKey(text);
    const headwords = scope !== 'meaning';
    const [exactRanks, foldedRanks, variantRanks, ...looseRanks] = this.forms.find(text, !headwords ? [] : [
      // As the build stores exact keys: without a verb root's leading hyphen (-bụ is typed bụ).
      { key: exact.replace(/^-+\s*/, ''), kind: FORM_KIND.exact, ...filters },
      folded === '' ? undefined : { key: folded, kind: FORM_KIND.folded, ...filters },
      folded === '' ? undefined : { key: folded, kind: FORM_KIND.variant, ...filters },
      ...looseKeys.flatMap(({ language, key: loose }) => [
        { key: loose, kind: FORM_KIND.variant, ...filters },
        // A headword of the language written so, reached by the other spelling (Igbo mmilī from "mmiri").
        !filters.language || filters.language === language ? { key: loose, kind: FORM_KIND.folded, ...filters, language } : undefined,
      ]),
    ]);
    // The text as an English sense (first senses, other senses) and as a gloss's first words, in one statement.
    const glossKinds = key === '' || scope === 'headword' ? [] : this.forms.findGloss(text, { key, ...filters });
    const globalRanks: number[] = [];
    const suffixes: string[] = [];
    const seen = new Set<number>();
    const add = (type: RankedType, found: number[]): boolean => {
      const typeSuffixes = ITEM_SUFFIXES[type];
      let position = 0;
      for (const globalRank of found) {
        if (seen.has(globalRank)) continue;
        seen.add(globalRank);
        globalRanks.push(globalRank);
        suffixes.push(typeSuffixes[++position]);
        if (globalRanks.length > MAX_RANKED_ROWS) return false;
      }
      return true;
    };
    // The full-text steps run only while the bound is not reached. The text as written comes first; then an English
    // meaning, before the entries that only share its letters (eye: ojú "eye" before ẹyẹ "bird"; dog: mbwa "dog"
    // before dogo "small"); glosses that merely begin with the text or mention it come after the spellings.
    const [first = [], other = [], start = []] = glossKinds;
    // Only English is a meaning: text with tone marks or underdots is a word of a language that a gloss may quote
    // (kọ́jọ́dá in "December, … the Kọ́jọ́dá"), found after the words written so.
    const english = ENGLISH_TEXT.test(key);
    const steps: [RankedType, () => number[]][] = [];
    if (headwords) steps.push(['exact', () => exactRanks]);
    if (scope !== 'headword' && english) steps.push(['meaning', () => this.byMeaning(first, other)]);
    if (headwords) {
      steps.push(['folded', () => this.closestLettersFirst(text, foldedRanks)]);
      steps.push(['variant', () => [...new Set([...variantRanks, ...looseRanks.flat()])].sort((a, b) => a - b)]);
    }
    if (scope !== 'headword') steps.push(['gloss', () => this.glossMatches(exact, english ? start : [...this.byMeaning(first, other), ...start], filters)]);
    if (headwords) {
      steps.push([
        'form',
        () => {
          // A plural, an inflected form, a romanisation: the other forms' blocks, filtered here as full-text
          // matches are (their rows carry no language or part of speech).
          const globalRanks = this.otherForms.find(folded, !hasSurrogate(text));
          return filters.language || filters.partOfSpeech ? this.facets.filter(globalRanks, filters) : globalRanks;
        },
      ]);
      // The text read as an inflected form by its language's rules (ninakula: kula), below the forms a source lists:
      // those are attested, a reading is the rules' (snapshot/reader/inflected.ts). Only when nothing above matched:
      // it is for a word the lexicon does not hold as written, and a query that finds its word pays nothing for it.
      steps.push(['inflected', () => (globalRanks.length === 0 ? this.inflected.find(text, folded, filters) : [])]);
      steps.push([
        'prefix',
        () => {
          const tokens = searchTokens(folded);
          const alternatives = [tokens, ...looseKeys.map((l) => searchTokens(l.key))];
          return this.fts(this.head, alternatives, filters, true);
        },
      ]);
    }
    for (const [type, run] of steps) if (!add(type, run())) break;
    const truncated = globalRanks.length > MAX_RANKED_ROWS;
    if (truncated) {
      globalRanks.length = MAX_RANKED_ROWS;
      suffixes.length = MAX_RANKED_ROWS;
    }
    return { globalRanks, suffixes, truncated };
  }

  /**
   * Folded matches of a text that writes letter marks (underdots, ṅ) but no tones: those whose letters it writes come
   * first, then those that differ in more letters, each group in global rank order. Standard Igbo is written so:
   * `bụ` is -bụ "be" before -bu "carry", `ọchịchị` òchịchị "government" before òchìchì "scrubbing". A text without
   * letter marks may have been typed without them, and says nothing of the letters; one with tone marks found its
   * own spelling as an exact match. Only texts with letter marks pay for reading the summaries, and a folded key's
   * entries are few.
   */
  private closestLettersFirst(text: string, found: number[]): number[] {
    if (found.length < 2 || !writesLetterMarks(text) || writesToneMarks(text)) return found;
    const differences = new Map<number, number>();
    for (const globalRank of found) {
      const { source, start, end } = this.summaries.get(globalRank);
      const { exactForm } = JSON.parse(source.toString('utf8', start, end)) as Pick<WordSummary, 'exactForm'>;
      differences.set(globalRank, letterMarkDifferences(text, exactForm));
    }
    const order = (globalRank: number): number => differences.get(globalRank) ?? Number.POSITIVE_INFINITY;
    // Infinity (another number of letters) compares equal to itself, not NaN.
    return [...found].sort((a, b) => (order(a) === order(b) ? a - b : order(a) < order(b) ? -1 : 1));
  }

  /**
   * The entries an English sense of which is the text: common entries whose first sense or other senses are it (in
   * global rank order: the everyday word, ọjà "village, town; market" before ọ̀bù "market"), then other entries whose
   * first sense is it, then those whose other senses are.
   */
  private byMeaning(first: readonly number[], other: readonly number[]): number[] {
    const common = [...first, ...other].filter((g) => g <= this.commonEntries).sort((a, b) => a - b);
    if (common.length === 0) return [...first, ...other];
    return [...common, ...first.filter((g) => g > this.commonEntries), ...other.filter((g) => g > this.commonEntries)];
  }

  /**
   * Gloss matches of the (lower-cased) text past its meanings: glosses that begin with it ("water" → "water pot"),
   * then glosses that mention its words, then a prefix of its last word.
   */
  private glossMatches(exact: string, begins: readonly number[], filters: MatchFilters): number[] {
    const tokens = glossTokens(exact);
    const last = tokens[tokens.length - 1] ?? '';
    const wholeWords = (): number[] => this.fts(this.gloss, [tokens], filters, false);
    if ([...last].length < MIN_GLOSS_PREFIX_CHARS) return [...new Set([...begins, ...wholeWords()])];
    // The prefix query runs first: every whole-word match is a prefix match too, so when it finds nothing
    // (most searches for a headword) the whole-word query is not run at all.
    const prefixed = this.fts(this.gloss, [tokens], filters, true);
    if (prefixed.length === 0) return [...begins];
    return [...new Set([...begins, ...wholeWords(), ...prefixed])];
  }

  /**
   * Without q: the language (or all) alphabetically by browse key (browseKey: words from their first letter, forms
   * without a letter last); nothing is ranked. A page past the end
   * reads nothing; a deep page starts from the nearest anchor at or before its offset (see
   * BROWSE_ANCHOR_EVERY), so it steps fewer than that many rows, not every row before it.
   */
  private browse(query: SearchQuery): SearchPage {
    if (query.letter !== undefined && query.language !== undefined) return this.browseLetter(query, query.language, query.letter);
    const language = query.language ?? ANY_FILTER;
    const pos = query.partOfSpeech ?? ANY_FILTER;
    const total = this.count.get(language, pos)?.n ?? 0;
    return this.browsePage(total, this.browseSlice(query, total, (query.page - 1) * query.limit, query.limit));
  }

  /** A page of one letter of a language's letter index: a slice of the language's browse order. */
  private browseLetter(query: SearchQuery, language: string, letter: string): SearchPage {
    const run = this.browseLetters(language).find((l) => l.letter === letter);
    if (run === undefined) return new RankedPage(0, [], [], false);
    const first = (query.page - 1) * query.limit;
    return this.browsePage(run.count, this.browseSlice({ ...query, partOfSpeech: undefined }, run.start + run.count, run.start + first, Math.min(query.limit, run.count - first)));
  }

  private browsePage(total: number, globalRanks: readonly number[]): RankedPage {
    return new RankedPage(total, globalRanks.map((p) => this.summaries.get(p)), globalRanks.map(() => BROWSE_SUFFIX), false);
  }

  /** The global ranks of `limit` rows of the filter's browse order from `offset` (none at or past `total`). */
  private browseSlice(query: SearchQuery, total: number, offset: number, limit: number): number[] {
    if (offset >= total || limit < 1) return [];
    const language = query.language ?? ANY_FILTER;
    const pos = query.partOfSpeech ?? ANY_FILTER;
    const anchorPosition = offset - (offset % BROWSE_ANCHOR_EVERY);
    // A snapshot always has the anchor below its count; without one the plain OFFSET gives the same rows.
    const anchor = anchorPosition === 0 ? undefined : this.anchor.get(language, pos, anchorPosition);
    const params: unknown[] = [];
    if (query.language) params.push(query.language);
    if (query.partOfSpeech) params.push(query.partOfSpeech);
    if (anchor) params.push(anchor.browseKey, anchor.id, offset - anchorPosition);
    else params.push(offset);
    return this.browseStatement({ ...query, limit }, anchor !== undefined).all(...params).map((r) => r.globalRank);
  }

  /**
   * The letter index of a language, read once per language from its browse index (covering: one pass over
   * the language's keys) and kept: the first character of each browse key that is a letter, with its run.
   */
  browseLetters(language: string): readonly BrowseLetter[] {
    let letters = this.letters.get(language);
    if (letters === undefined) {
      letters = [];
      let start = 0;
      const rows = this.db.prepare('SELECT substr(browse_key, 1, 1) AS letter, count(*) AS n FROM entries WHERE language = ? GROUP BY 1 ORDER BY 1').all(language) as { letter: string; n: number }[];
      for (const { letter, n } of rows) {
        if (LETTER.test(letter)) letters.push({ letter, start, count: n });
        start += n;
      }
      this.letters.set(language, letters);
    }
    return letters;
  }

  /**
   * One statement per filter shape, start (the first row or an anchor) and page size (at most 8 × 100 for
   * the API's limits), prepared on first use.
   */
  private browseStatement({ language, partOfSpeech, limit }: SearchQuery, fromAnchor: boolean): Stmt {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`browse limit must be a positive integer, got ${limit}`);
    const shape = `${language ? 'l' : ''}${partOfSpeech ? 'p' : ''}${fromAnchor ? 'a' : ''}${limit}`;
    let stmt = this.browseStatements.get(shape);
    if (!stmt) {
      // The row value (browse_key, id) >= (?, ?) is a range on the same browse index that orders the page.
      const where = [language ? 'language = ?' : '', partOfSpeech ? 'pos = ?' : '', fromAnchor ? '(browse_key, id) >= (?, ?)' : '']
        .filter(Boolean)
        .join(' AND ');
      stmt = this.db.prepare(`SELECT global_rank AS globalRank FROM entries ${where ? `WHERE ${where}` : ''} ORDER BY browse_key, id LIMIT ${limit} OFFSET ?`) as Stmt;
      this.browseStatements.set(shape, stmt);
    }
    return stmt;
  }
}
