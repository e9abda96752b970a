// The terms of an FTS5 table's columns, held in the worker as a KeyFilter: a MATCH that needs a term the
// index does not have (a headword searched among English glosses, an English word among headwords) is known
// to find nothing without running it.
import Database from 'better-sqlite3';

import { KeyFilter } from './key-filter.ts';

/** The columns search matches text in, per FTS table; the tags columns only narrow by language and part of speech. */
export const SEARCHED_COLUMNS = { head_fts: ['head', 'vars'], gloss_fts: ['glosses'] } as const satisfies Record<string, readonly string[]>;

/**
 * Code points below this are folded here exactly as the table's tokenizer folds them: the fold is read from
 * SQLite itself at start-up, by tokenizing each code point alone. It covers the Latin, Greek, Cyrillic,
 * Arabic, N'Ko and Ethiopic blocks and the combining marks; a token with any other character is not judged
 * (its statement runs).
 */
export const FOLDED_CODE_POINTS = 0x3000;
/** Not a token character alone (a separator, or a mark that only continues a token): not judged. */
const NOT_JUDGED = -1;
/** A diacritic that continues a token and is removed from its term (remove_diacritics): ọ̀ is the term o. */
const REMOVED = -2;
/** Filter spaces: a whole term, and every prefix of one (the term itself included). */
const TERM = 1;
const PREFIX = 2;

export class FtsTerms {
  private constructor(
    /** Per code point below FOLDED_CODE_POINTS: what the tokenizer makes of it, or NOT_JUDGED. */
    private readonly folds: Int32Array,
    private readonly filter: KeyFilter,
  ) {}

  /** The terms of `columns` of `table`, read from its index (see termFilter and `over`). */
  static load(db: Database.Database, table: string, columns: readonly string[]): FtsTerms | undefined {
    return FtsTerms.over(db, table, termFilter(db, table, columns));
  }

  /**
   * The terms of `table` held in `filter` (termFilter's, or the build's copy of it), with the table's tokenizer
   * read from its CREATE statement. Undefined without a filter (too wide, see MAX_FILTER_BITS) or a declared
   * tokenizer.
   */
  static over(db: Database.Database, table: string, filter: KeyFilter | undefined): FtsTerms | undefined {
    const tokenize = declaredTokenizer(db, table);
    return tokenize === undefined || filter === undefined ? undefined : new FtsTerms(tokenizerFolds(tokenize), filter);
  }

  /**
   * False only when no row can match: an alternative needs every token as a term (the last one as a prefix
   * of a term when `lastIsPrefix`), as the MATCH built by matchExpression does.
   */
  mayMatch(alternatives: readonly (readonly string[])[], lastIsPrefix: boolean): boolean {
    return alternatives.some((tokens) => tokens.length > 0 && tokens.every((token, i) => this.mayHave(token, lastIsPrefix && i === tokens.length - 1)));
  }

  private mayHave(token: string, asPrefix: boolean): boolean {
    const term = this.fold(token);
    return term === undefined || this.filter.mightContain(term, asPrefix ? PREFIX : TERM);
  }

  /** The term the tokenizer makes of a token, or undefined when a character is not judged here. */
  private fold(token: string): string | undefined {
    let folded: string | undefined;
    for (let i = 0; i < token.length; i++) {
      const code = token.charCodeAt(i);
      const to = code < FOLDED_CODE_POINTS ? this.folds[code] : NOT_JUDGED;
      // A diacritic cannot start a token: there the tokenizer would skip it as a separator.
      if (to === NOT_JUDGED || (to === REMOVED && i === 0)) return undefined;
      if (to === REMOVED) folded ??= token.slice(0, i);
      else if (folded !== undefined) folded += String.fromCharCode(to);
      else if (to !== code) folded = token.slice(0, i) + String.fromCharCode(to);
    }
    return folded === undefined ? (token === '' ? undefined : token) : folded;
  }
}

/**
 * A filter of every term of `columns` of `table` and every prefix of one, read from the index; undefined when
 * it would be too wide (see MAX_FILTER_BITS).
 */
export function termFilter(db: Database.Database, table: string, columns: readonly string[]): KeyFilter | undefined {
  // An fts5vocab table is a view of the index: created in the connection's temp schema, not the snapshot.
  const vocab = `temp."${table}_terms"`;
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${vocab} USING fts5vocab(main, "${table}", 'col')`);
  const inColumns = `col IN (${columns.map(() => '?').join(', ')})`;
  // Room for every term and each of its prefixes: at most as many as its characters.
  const size = db.prepare(`SELECT count(*) + coalesce(sum(length(term)), 0) FROM ${vocab} WHERE ${inColumns}`).pluck().get(...columns) as number;
  const filter = KeyFilter.sized(size);
  if (filter === undefined) return undefined;
  let previous = '';
  for (const term of db.prepare(`SELECT term FROM ${vocab} WHERE ${inColumns}`).pluck().iterate(...columns) as IterableIterator<string>) {
    if (term === previous) continue; // the same term in another column
    filter.add(term, TERM);
    // Prefixes as long as the one shared with the previous term were added with it.
    let shared = 0;
    while (shared < term.length && term.charCodeAt(shared) === previous.charCodeAt(shared)) shared++;
    filter.addPrefixes(term, shared, PREFIX);
    previous = term;
  }
  return filter;
}

/** The `tokenize = …` argument of an FTS5 table's CREATE statement, quotes included; undefined without one. */
export function declaredTokenizer(db: Database.Database, table: string): string | undefined {
  const sql = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").pluck().get(table) as string | undefined;
  return sql === undefined ? undefined : /\btokenize\s*=\s*("(?:[^"]|"")*"|'(?:[^']|'')*')/i.exec(sql)?.[1];
}

const MARK = /^\p{M}$/u;

/** Per tokenizer declaration: a reopened snapshot (publish, tests) asks SQLite once. */
const foldsByTokenizer = new Map<string, Int32Array>();

/**
 * What a tokenizer makes of each code point, asked of SQLite: a scratch FTS5 table holds each code point alone
 * (row = the code point) and each mark after "a" (row = FOLDED_CODE_POINTS + it), read back through fts5vocab.
 * unicode61 folds code point by code point, so a token of code points that are token characters alone becomes
 * the concatenation of their folds. A mark that makes no token alone, and after "a" leaves the one term "a",
 * is a diacritic the tokenizer removes inside a token (REMOVED). Any other code point, or one that folds to
 * more or less than one UTF-16 unit, is NOT_JUDGED.
 */
function tokenizerFolds(tokenize: string): Int32Array {
  const known = foldsByTokenizer.get(tokenize);
  if (known) return known;
  const n = FOLDED_CODE_POINTS;
  const scratch = new Database(':memory:');
  /** Per row: how many terms it made, and the last of them. */
  const count = new Uint8Array(2 * n);
  const term = new Array<string>(2 * n);
  try {
    scratch.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize = ${tokenize}); CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');`);
    const insert = scratch.prepare('INSERT INTO t (rowid, x) VALUES (?, ?)');
    scratch.transaction(() => {
      // Code point 0 is left out: SQLite text ends at it.
      for (let code = 1; code < n; code++) {
        const c = String.fromCharCode(code);
        insert.run(code, c);
        // Only marks can be diacritics; asking of every code point would double the work at start-up, and a
        // code point not asked is NOT_JUDGED, which only means its statement runs.
        if (MARK.test(c)) insert.run(n + code, `a${c}`);
      }
    })();
    for (const [t, doc] of scratch.prepare('SELECT term, doc FROM v').raw().iterate() as IterableIterator<[string, number]>) {
      count[doc]++;
      term[doc] = t;
    }
  } finally {
    scratch.close();
  }
  const folds = new Int32Array(n).fill(NOT_JUDGED);
  for (let code = 1; code < n; code++) {
    if (count[code] === 1 && term[code].length === 1) folds[code] = term[code].charCodeAt(0);
    else if (count[code] === 0 && count[n + code] === 1 && term[n + code] === 'a') folds[code] = REMOVED;
  }
  foldsByTokenizer.set(tokenize, folds);
  return folds;
}
