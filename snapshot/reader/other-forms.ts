// Lookups of a folded form among the entries' other forms (plurals, inflected forms, romanisations): the
// other_forms table's front-coded blocks (snapshot/format/form-blocks.ts).
import type Database from 'better-sqlite3';

import { findInFormBlock } from '../format/form-blocks.ts';
import type { KeyFilter } from '../format/key-filter.ts';

export class OtherForms {
  /** The block that holds a key if any does: the last one whose first key is <= it (one B-tree seek). */
  private readonly block: Database.Statement<[string], Buffer>;

  constructor(
    db: Database.Database,
    /** Every key of the table (stored-filters.ts); undefined: every lookup runs. */
    private readonly keys?: KeyFilter,
  ) {
    this.block = db.prepare('SELECT block FROM other_forms WHERE first <= ? ORDER BY first DESC LIMIT 1').pluck() as Database.Statement<[string], Buffer>;
  }

  /** False only when no entry has the key among its other forms (the filter's answer); true without a filter. */
  mightHave(key: string): boolean {
    return this.keys === undefined || this.keys.mightContain(key, 0);
  }

  /** The global ranks (ascending: rank order) of the entries that have `key` among their other forms. */
  find(key: string, judge: boolean): number[] {
    if (key === '' || (judge && this.keys && !this.keys.mightContain(key, 0))) return [];
    const block = this.block.get(key);
    return block === undefined ? [] : findInFormBlock(block, Buffer.from(key, 'utf8'));
  }
}
