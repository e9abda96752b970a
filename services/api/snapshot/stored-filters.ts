// The key filters as the build stores them in the snapshot (table key_filters): one row per filter, the forms
// keys' and each full-text index's terms. Building them means reading every key and term, which at start took
// a worker about 3 s at 1M entries (npm run bench, build scaling's "open ms" before session 17); the build
// does it once, and a worker reads the bytes.
import type Database from 'better-sqlite3';

import { formKeyFilter } from './form-lookups.ts';
import { SEARCHED_COLUMNS, termFilter } from './fts-terms.ts';
import { KEY_FILTER_FORMAT, KeyFilter } from './key-filter.ts';

/** The row of the forms filter; the full-text filters' rows are named after their tables. */
export const FORMS_FILTER = 'forms';

/** A filter the build stored: `filter` undefined means the build found it too wide (MAX_FILTER_BITS) to keep. */
export interface StoredFilter {
  filter: KeyFilter | undefined;
}

/**
 * Writes every filter the reader asks for (the build, once the forms and full-text indexes are final), and
 * says how many bytes each took ("none" when too wide to keep).
 */
export function writeKeyFilters(db: Database.Database): string {
  const insert = db.prepare('INSERT INTO key_filters (name, format, bits) VALUES (?, ?, ?)');
  const filters: [string, KeyFilter | undefined][] = [
    [FORMS_FILTER, formKeyFilter(db)],
    ...Object.entries(SEARCHED_COLUMNS).map(([table, columns]): [string, KeyFilter | undefined] => [table, termFilter(db, table, columns)]),
  ];
  for (const [name, filter] of filters) insert.run(name, KEY_FILTER_FORMAT, filter?.toBytes() ?? null);
  return filters.map(([name, filter]) => `${name} ${filter ? `${filter.byteLength} bytes` : 'none'}`).join(', ');
}

/**
 * The stored filters of KEY_FILTER_FORMAT by name. A snapshot built before the table existed, or a filter
 * stored in another format, has none: the reader then builds that filter from the index itself.
 */
export function readKeyFilters(db: Database.Database): Map<string, StoredFilter> {
  const stored = new Map<string, StoredFilter>();
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'key_filters'").get() !== undefined;
  if (!hasTable) return stored;
  const rows = db.prepare('SELECT name, bits FROM key_filters WHERE format = ?').raw().all(KEY_FILTER_FORMAT) as [string, Buffer | null][];
  for (const [name, bits] of rows) {
    if (bits === null) {
      stored.set(name, { filter: undefined });
      continue;
    }
    // Bytes no filter can have are a broken row: the reader builds its own rather than trust it.
    const filter = KeyFilter.fromBytes(bits);
    if (filter) stored.set(name, { filter });
  }
  return stored;
}
