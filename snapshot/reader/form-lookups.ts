// Lookups in the snapshot's `forms` B-tree (exact, folded, variant and whole-gloss keys) for one query.
// One statement per lookup, not a compound UNION ALL of them: SQLite runs each ORDER BY ... LIMIT part of a
// compound as a co-routine, which costs more than the separate statements.
import type Database from 'better-sqlite3';

import { FORM_KIND, MAX_RANKED_ROWS } from '../format/format.ts';

/** The gloss kinds of the forms table, adjacent, in ranking order. */
const GLOSS_KINDS = [FORM_KIND.gloss, FORM_KIND.glossSense, FORM_KIND.glossStart] as const;
import { KeyFilter, hasSurrogate } from '../format/key-filter.ts';

/** One lookup: the entries with this key of this kind, under the filters, in global rank order. */
export interface FormLookup {
  key: string;
  kind: number;
  language?: string;
  partOfSpeech?: string;
}

type LookupStmt = Database.Statement<unknown[], number>;
type RangeStmt = Database.Statement<unknown[], [kind: number, globalRank: number]>;

export class FormLookups {
  /** One statement per filter shape, indexed by filter shape: none, language, part of speech, both. */
  private readonly statements: LookupStmt[];
  /** The same shapes over the three gloss kinds of one key, in (kind, global_rank) order: one statement for all. */
  private readonly glossStatements: RangeStmt[];
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
    this.glossStatements = [0, 1, 2, 3].map((shape) => {
      const where = `${shape & 1 ? ' AND language = ?' : ''}${shape & 2 ? ' AND pos = ?' : ''}`;
      // The primary key's range for one key and three kinds is already in (kind, global_rank) order. Three times the
      // bound: each kind's rows come in turn, and once the first ones pass the bound the ranking stops there anyway.
      return db
        .prepare(
          `SELECT kind, global_rank FROM forms WHERE key = ? AND kind BETWEEN ${FORM_KIND.gloss} AND ${FORM_KIND.glossStart}${where} ORDER BY kind, global_rank LIMIT ${GLOSS_KINDS.length * (MAX_RANKED_ROWS + 1)}`,
        )
        .raw() as RangeStmt;
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
   * The global ranks of one English key under the gloss kinds (first sense, other senses, first words), as three
   * lists: one statement where three would run.
   */
  findGloss(text: string, { key, language, partOfSpeech }: Omit<FormLookup, 'kind'>): number[][] {
    const filter = this.keys !== undefined && !hasSurrogate(text) ? this.keys : undefined;
    const lists: number[][] = GLOSS_KINDS.map(() => []);
    if (filter && GLOSS_KINDS.every((kind) => !filter.mightContain(key, kind))) return lists;
    const stmt = this.glossStatements[(language ? 1 : 0) | (partOfSpeech ? 2 : 0)];
    const params: unknown[] = [key];
    if (language) params.push(language);
    if (partOfSpeech) params.push(partOfSpeech);
    for (const [kind, globalRank] of stmt.all(...params)) lists[kind - FORM_KIND.gloss].push(globalRank);
    return lists.map((l) => l.slice(0, MAX_RANKED_ROWS + 1));
  }

  /** False only when no row has this key and kind (the filter's answer, no statement); true without a filter. */
  mightHave(key: string, kind: number): boolean {
    return this.keys === undefined || hasSurrogate(key) || this.keys.mightContain(key, kind);
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
