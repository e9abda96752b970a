// The key filters as the build stores them in the snapshot (table key_filters): one row per filter, the forms
// keys' and each full-text index's terms. Building one means reading every key or term of the snapshot; the
// build does it once, so that a worker reads the bytes at each start and reload instead (build scaling's
// "open ms" in BENCHMARKS.md).
import Database from 'better-sqlite3';

import { decodeFormBlock } from './form-blocks.ts';
import { SEARCHED_COLUMNS, termFilter } from './fts-terms.ts';
import { KEY_FILTER_FORMAT, KeyFilter } from './key-filter.ts';

/** The row of the forms filter; the full-text filters' rows are named after their tables. */
export const FORMS_FILTER = 'forms';
/** The row of the other forms' filter (their keys, from the other_forms blocks). */
export const OTHER_FORMS_FILTER = 'other_forms';

/** Every filter search asks for, by the name of its row, and how it is made from the snapshot's indexes. */
const FILTERS: readonly [string, (db: Database.Database) => KeyFilter | undefined][] = [
  [FORMS_FILTER, formKeyFilter],
  [OTHER_FORMS_FILTER, otherFormsKeyFilter],
  ...Object.entries(SEARCHED_COLUMNS).map(([table, columns]): [string, (db: Database.Database) => KeyFilter | undefined] => [
    table,
    (db) => termFilter(db, table, columns),
  ]),
];

/**
 * Writes every filter (the build, once the forms and full-text indexes are final), and says how many bytes
 * each took ("none" when too wide to keep: bits NULL).
 */
export function writeKeyFilters(db: Database.Database): string {
  const insert = db.prepare('INSERT INTO key_filters (name, format, bits) VALUES (?, ?, ?)');
  return FILTERS.map(([name, make]) => {
    const filter = make(db);
    insert.run(name, KEY_FILTER_FORMAT, filter?.toBytes() ?? null);
    return `${name} ${filter ? `${filter.byteLength} bytes` : 'none'}`;
  }).join(', ');
}

/**
 * The filters stored in KEY_FILTER_FORMAT, by name: undefined for one the build found too wide. Bytes no filter
 * can have are a broken row, left out like a row of another format.
 */
export function readKeyFilters(db: Database.Database): Map<string, KeyFilter | undefined> {
  const stored = new Map<string, KeyFilter | undefined>();
  const rows = db.prepare('SELECT name, bits FROM key_filters WHERE format = ?').raw().all(KEY_FILTER_FORMAT) as [string, Buffer | null][];
  for (const [name, bits] of rows) {
    const filter = bits === null ? undefined : KeyFilter.fromBytes(bits);
    if (bits === null || filter) stored.set(name, filter);
  }
  return stored;
}

/**
 * Every filter search asks for, by name (undefined: none, every such lookup runs): the stored one, else built
 * from the index. Read through a connection of their own without the memory map: through the map, the bytes,
 * or every key and term when built, would stay resident in each worker.
 */
export function loadKeyFilters(file: string): Map<string, KeyFilter | undefined> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('mmap_size = 0');
    const stored = readKeyFilters(db);
    return new Map(FILTERS.map(([name, make]) => [name, stored.has(name) ? stored.get(name) : make(db)]));
  } finally {
    db.close();
  }
}

/** A filter of the distinct (key, kind) pairs, read in primary-key order (one key's kinds together). */
export function formKeyFilter(db: Database.Database): KeyFilter | undefined {
  const filter = KeyFilter.sized(db.prepare('SELECT count(*) FROM forms').pluck().get() as number);
  if (filter === undefined) return undefined;
  let lastKey = '';
  let lastKind = -1;
  for (const [key, kind] of db.prepare('SELECT key, kind FROM forms').raw().iterate() as IterableIterator<[string, number]>) {
    if (key === lastKey && kind === lastKind) continue;
    filter.add(key, kind);
    lastKey = key;
    lastKind = kind;
  }
  return filter;
}

/** A filter of every key in the other_forms blocks (each decoded once). */
export function otherFormsKeyFilter(db: Database.Database): KeyFilter | undefined {
  const blocks = db.prepare('SELECT block FROM other_forms').pluck().all() as Buffer[];
  const keys: string[] = [];
  for (const block of blocks) for (const [key] of decodeFormBlock(block)) keys.push(key.toString('utf8'));
  const filter = KeyFilter.sized(keys.length);
  if (filter === undefined) return undefined;
  for (const key of keys) filter.add(key, 0);
  return filter;
}
