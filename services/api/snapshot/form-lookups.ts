// Lookups in the snapshot's `forms` B-tree (exact, folded, variant and whole-gloss keys) for one query.
// One statement per lookup, not a compound UNION ALL of them: SQLite runs each ORDER BY ... LIMIT part of a
// compound as a co-routine, which costs more than the separate statements.
import type Database from 'better-sqlite3';

import { MAX_RANKED_ROWS } from '../../shared/snapshot/format.ts';
import { KeyFilter, hasSurrogate } from '../../shared/snapshot/key-filter.ts';

/** One lookup: the entries with this key of this kind, under the filters, in rank (pop) order. */
export interface FormLookup {
  key: string;
  kind: number;
  language?: string;
  partOfSpeech?: string;
}

type LookupStmt = Database.Statement<unknown[], number>;

export class FormLookups {
  /** One statement per filter shape, indexed by filter shape: none, language, part of speech, both. */
  private readonly statements: LookupStmt[];
  /**
   * Every (key, kind) in `forms`: most lookups are of keys the snapshot does not have, and the filter answers
   * those without a statement. Undefined (every lookup runs) without one.
   */
  private readonly keys: KeyFilter | undefined;

  constructor(db: Database.Database, keys?: KeyFilter) {
    this.statements = [0, 1, 2, 3].map((shape) => {
      const where = `${shape & 1 ? ' AND language = ?' : ''}${shape & 2 ? ' AND pos = ?' : ''}`;
      // The primary key (key, kind, pop) returns one key's rows in rank order: no sort.
      return db.prepare(`SELECT pop FROM forms WHERE key = ? AND kind = ?${where} ORDER BY pop LIMIT ${MAX_RANKED_ROWS + 1}`).pluck() as LookupStmt;
    });
    this.keys = keys;
  }

  /**
   * The pops found for each lookup, aligned with `lookups`; an undefined lookup finds nothing. The keys are
   * all made from one search text, so whether the filter may judge them is asked of that text once.
   */
  find(text: string, lookups: readonly (FormLookup | undefined)[]): number[][] {
    const filter = this.keys !== undefined && !hasSurrogate(text) ? this.keys : undefined;
    return lookups.map((l) => (l === undefined ? [] : this.one(l, filter)));
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
