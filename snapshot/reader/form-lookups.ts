// Lookups in the snapshot's `forms` B-tree (exact, folded, variant and whole-gloss keys) for one query.
// One statement per lookup, not a compound UNION ALL of them: SQLite runs each ORDER BY ... LIMIT part of a
// compound as a co-routine, which costs more than the separate statements.
import type Database from 'better-sqlite3';

import { MAX_RANKED_ROWS } from '../format/format.ts';
import { KeyFilter, hasSurrogate } from '../format/key-filter.ts';

/** One lookup: the entries with this key of this kind, under the filters, in global rank order. */
export interface FormLookup {
  key: string;
  kind: number;
  language?: string;
  partOfSpeech?: string;
}

type LookupStmt = Database.Statement<unknown[], number>;
type PairStmt = Database.Statement<unknown[], [kind: number, globalRank: number]>;

export class FormLookups {
  /** One statement per filter shape, indexed by filter shape: none, language, part of speech, both. */
  private readonly statements: LookupStmt[];
  /** The same shapes over two adjacent kinds of one key, in (kind, global_rank) order: one statement for both. */
  private readonly pairStatements: PairStmt[];
  /**
   * Every (key, kind) in `forms`: most lookups are of keys the snapshot does not have, and the filter answers
   * those without a statement. Undefined (every lookup runs) without one.
   */
  private readonly keys: KeyFilter | undefined;

  constructor(db: Database.Database, keys?: KeyFilter) {
    this.statements = [0, 1, 2, 3].map((shape) => {
      const where = `${shape & 1 ? ' AND language = ?' : ''}${shape & 2 ? ' AND pos = ?' : ''}`;
      // The primary key (key, kind, global_rank) returns one key's rows in rank order: no sort.
      return db.prepare(`SELECT global_rank FROM forms WHERE key = ? AND kind = ?${where} ORDER BY global_rank LIMIT ${MAX_RANKED_ROWS + 1}`).pluck() as LookupStmt;
    });
    this.pairStatements = [0, 1, 2, 3].map((shape) => {
      const where = `${shape & 1 ? ' AND language = ?' : ''}${shape & 2 ? ' AND pos = ?' : ''}`;
      // The primary key's range for one key and two kinds is already in (kind, global_rank) order. Twice the bound: the
      // first kind's rows come first, and if they alone pass the bound the ranking stops there anyway.
      return db
        .prepare(`SELECT kind, global_rank FROM forms WHERE key = ? AND kind BETWEEN ? AND ?${where} ORDER BY kind, global_rank LIMIT ${2 * (MAX_RANKED_ROWS + 1)}`)
        .raw() as PairStmt;
    });
    this.keys = keys;
  }

  /**
   * The global ranks found for each lookup, aligned with `lookups`; an undefined lookup finds nothing. The keys are
   * all made from one search text, so whether the filter may judge them is asked of that text once.
   */
  find(text: string, lookups: readonly (FormLookup | undefined)[]): number[][] {
    const filter = this.keys !== undefined && !hasSurrogate(text) ? this.keys : undefined;
    return lookups.map((l) => (l === undefined ? [] : this.one(l, filter)));
  }

  /**
   * The global ranks of one key under two adjacent kinds (`lookup.kind` and the next), as two lists: one statement where
   * two would run (the whole-gloss and gloss-start keys of an English query).
   */
  findPair(text: string, { key, kind, language, partOfSpeech }: FormLookup): [number[], number[]] {
    const filter = this.keys !== undefined && !hasSurrogate(text) ? this.keys : undefined;
    if (filter && !filter.mightContain(key, kind) && !filter.mightContain(key, kind + 1)) return [[], []];
    const stmt = this.pairStatements[(language ? 1 : 0) | (partOfSpeech ? 2 : 0)];
    const params: unknown[] = [key, kind, kind + 1];
    if (language) params.push(language);
    if (partOfSpeech) params.push(partOfSpeech);
    const first: number[] = [];
    const second: number[] = [];
    for (const [k, globalRank] of stmt.all(...params)) (k === kind ? first : second).push(globalRank);
    return [first.slice(0, MAX_RANKED_ROWS + 1), second.slice(0, MAX_RANKED_ROWS + 1)];
  }

  private one({ key, kind, language, partOfSpeech }: FormLookup, filter: KeyFilter | undefined): number[] {
    if (filter && !filter.mightContain(key, kind)) return [];
    const stmt = this.statements[(language ? 1 : 0) | (partOfSpeech ? 2 : 0)];
    if (language && partOfSpeech) return stmt.all(key, kind, language, partOfSpeech);
    if (language) return stmt.all(key, kind, language);
    if (partOfSpeech) return stmt.all(key, kind, partOfSpeech);
    return stmt.all(key, kind);
  }
}
