// The key filters search asks before running a statement (KeyFilter over `forms` keys, FtsTerms over the
// full-text terms): they may say "maybe" for an absent key, never "absent" for a present one, so results
// are the same with them as without.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import Database from 'better-sqlite3';
import fc from 'fast-check';

import { FOLDED_CODE_POINTS, FtsTerms, SEARCHED_COLUMNS, termFilter } from '../../../snapshot/format/fts-terms.ts';
import { matchExpression } from '../../../snapshot/reader/fts-query.ts';
import { KeyFilter, MAX_FILTER_BITS, hasSurrogate } from '../../../snapshot/format/key-filter.ts';
import { openSnapshot } from '../../../snapshot/reader/reader.ts';
import { FORMS_FILTER, OTHER_FORMS_FILTER, formKeyFilter, otherFormsKeyFilter, readKeyFilters } from '../../../snapshot/format/stored-filters.ts';
import type { SearchPage, SearchQuery, Snapshot } from '../../../snapshot/reader/snapshot.ts';
import { fold, glossTokens, searchTokens } from '../../../snapshot/format/text.ts';
import { testSnapshotPath } from '../../support/snapshot.ts';

describe('key filter', () => {
  it('key filter - every key added is found, in its own space', () => {
    const filter = KeyFilter.sized(20_000);
    assert.ok(filter);
    const keys = Array.from({ length: 20_000 }, (_, i) => `ọ̀${i.toString(36)}-${'x'.repeat(i % 7)}`);
    keys.forEach((key, i) => filter.add(key, i % 4));
    keys.forEach((key, i) => assert.ok(filter.mightContain(key, i % 4), key));
  });

  it('key filter - about 1 % of absent keys are "maybe"', () => {
    const filter = KeyFilter.sized(10_000);
    assert.ok(filter);
    for (let i = 0; i < 10_000; i++) filter.add(`key ${i}`);
    let maybe = 0;
    for (let i = 0; i < 10_000; i++) if (filter.mightContain(`absent ${i}`)) maybe++;
    // A fixed hash over fixed keys: the count is the same every run; 3 % is room, not timing.
    assert.ok(maybe < 300, `${maybe} of 10,000 absent keys said maybe`);
    let otherSpace = 0;
    for (let i = 0; i < 10_000; i++) if (filter.mightContain(`key ${i}`, 1)) otherSpace++;
    assert.ok(otherSpace < 300, `${otherSpace} of 10,000 keys said maybe in another space`);
  });

  it('key filter - none is built wider than the cap', () => {
    assert.equal(KeyFilter.sized(MAX_FILTER_BITS), undefined);
    assert.ok((KeyFilter.sized(1000)?.byteLength ?? 0) <= 2048);
  });

  it('key filter - its bytes make the same filter again, and bytes no filter has make none', () => {
    const filter = KeyFilter.sized(5_000);
    assert.ok(filter);
    for (let i = 0; i < 5_000; i++) filter.add(`key ${i}`, i % 3);
    const again = KeyFilter.fromBytes(filter.toBytes());
    assert.ok(again);
    assert.ok(again.toBytes().equals(filter.toBytes()));
    for (let i = 0; i < 5_000; i++) assert.ok(again.mightContain(`key ${i}`, i % 3));
    for (const bytes of [0, 4, 12, 1000, MAX_FILTER_BITS / 8 * 2]) assert.equal(KeyFilter.fromBytes(new Uint8Array(bytes)), undefined, `${bytes} bytes`);
  });

  it('key filter - text with surrogates is set aside', () => {
    assert.equal(hasSurrogate('omi'), false);
    assert.equal(hasSurrogate('a\uD800b'), true);
    assert.equal(hasSurrogate('𝕒'), true);
  });
});

/** Characters a query or a corpus may hold: cased and accented Latin, the odd folds, marks, other scripts. */
const ALPHABET = [
  ...'abcdeẹfgghiịjklmnoọprsṣtuụwyzABCDẸỌṢ019',
  ...'áàâãäåçéèêëíìîïñóòôõöúùûüýÿÀÁÉÈÍÓÚŃńǸǹḾḿ',
  '\u0300',
  '\u0301',
  '\u0302',
  '\u0304',
  '\u0323',
  '\u0345',
  ...'ſµςΣσİıKÅɛɔƐƆŋŊ',
  ...'αβγΔЖжاب',
  ...'中文',
  '𝕒',
  '😀',
  ...' -\'',
];
const arbText = fc.array(fc.constantFrom(...ALPHABET), { minLength: 1, maxLength: 8 }).map((chars) => chars.join(''));

/** A scratch index declared like the snapshot's, so FtsTerms reads its tokenizer the same way. */
function scratchIndex(snapshot: Database.Database, table: 'head_fts' | 'gloss_fts', docs: readonly string[]): Database.Database {
  const declared = snapshot.prepare("SELECT sql FROM sqlite_master WHERE name = ?").pluck().get(table) as string;
  const db = new Database(':memory:');
  db.exec(declared);
  const column = table === 'head_fts' ? 'head' : 'glosses';
  const insert = db.prepare(`INSERT INTO ${table} (rowid, ${column}) VALUES (?, ?)`);
  docs.forEach((doc, i) => insert.run(i + 1, doc));
  return db;
}

describe('full-text terms', () => {
  let snapshotDb: Database.Database;
  before(() => {
    snapshotDb = new Database(testSnapshotPath(), { readonly: true });
  });
  after(() => snapshotDb.close());

  for (const [table, columns, tokens] of [
    ['head_fts', ['head', 'vars'], (text: string) => searchTokens(fold(text))],
    ['gloss_fts', ['glosses'], (text: string) => glossTokens(text.toLowerCase())],
  ] as const) {
    it(`full-text terms - ${table}: whenever SQLite finds a row, the terms say it may`, () => {
      let found = 0;
      fc.assert(
        fc.property(fc.array(arbText, { minLength: 1, maxLength: 12 }), arbText, fc.boolean(), (docs, query, lastIsPrefix) => {
          const db = scratchIndex(snapshotDb, table, docs);
          try {
            const terms = FtsTerms.load(db, table, columns);
            assert.ok(terms);
            const stmt = db.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ?`).pluck();
            // The query as typed, and each document's own words with a letter dropped from the end.
            const candidates = [query, ...docs, ...docs.map((d) => d.slice(0, -1))];
            for (const text of candidates) {
              const alternatives = [tokens(text)];
              const expression = matchExpression(columns, alternatives, {}, lastIsPrefix);
              if (expression === null) continue;
              let rows: unknown[];
              try {
                rows = stmt.all(expression);
              } catch {
                continue; // an expression FTS5 refuses finds nothing either way
              }
              if (rows.length > 0) {
                found++;
                assert.ok(terms.mayMatch(alternatives, lastIsPrefix), `${JSON.stringify(text)} in ${JSON.stringify(docs)}`);
              }
            }
          } finally {
            db.close();
          }
        }),
        { numRuns: 300, seed: 15 },
      );
      // The property says something only about queries that find rows: many must.
      assert.ok(found > 200, `only ${found} queries found a row`);
    });
  }

  it('forms keys - every (key, kind) of the test snapshot is found, and few absent ones are "maybe"', () => {
    const filter = formKeyFilter(snapshotDb);
    assert.ok(filter, 'the real corpora have a forms filter');
    const rows = snapshotDb.prepare('SELECT DISTINCT key, kind FROM forms').raw().all() as [string, number][];
    for (const [key, kind] of rows) assert.ok(filter.mightContain(key, kind), `${key} (${kind})`);
    let maybe = 0;
    for (const [key, kind] of rows) if (filter.mightContain(`${key}\u0001absent`, kind)) maybe++;
    assert.ok(maybe < rows.length * 0.03, `${maybe} of ${rows.length} absent keys said maybe`);
  });

  it('full-text terms - a term that is not there rules a statement out, and a prefix of one does not', () => {
    const db = scratchIndex(snapshotDb, 'gloss_fts', ['Water of life', 'CAFÉ au lait']);
    try {
      const terms = FtsTerms.load(db, 'gloss_fts', ['glosses']);
      assert.ok(terms);
      assert.equal(terms.mayMatch([['water']], false), true);
      assert.equal(terms.mayMatch([['wat']], true), true);
      assert.equal(terms.mayMatch([['café']], false), true, 'folded as the tokenizer folds it: cafe');
      assert.equal(terms.mayMatch([['omi']], true), false);
      assert.equal(terms.mayMatch([['life', 'omi']], false), false, 'every token is needed');
      assert.equal(terms.mayMatch([['omi'], ['lait']], false), true, 'one alternative is enough');
      assert.equal(terms.mayMatch([['水']], false), true, 'beyond the folded code points nothing is judged');
      assert.ok('水'.charCodeAt(0) >= FOLDED_CODE_POINTS);
    } finally {
      db.close();
    }
  });
});

/** Queries from the test snapshot's own entries: each exact form, its folded form and a prefix, and gloss words. */
function snapshotQueries(): SearchQuery[] {
  const db = new Database(testSnapshotPath(), { readonly: true });
  try {
    const summaries = db.prepare('SELECT summary FROM entry_summary WHERE global_rank % 7 = 0').pluck().all() as string[];
    const queries: SearchQuery[] = [];
    for (const [i, text] of summaries.entries()) {
      const entry = JSON.parse(text) as { exactForm: string; language: string; glosses: string[] };
      const language = i % 2 === 0 ? entry.language : undefined;
      const folded = fold(entry.exactForm);
      for (const q of [entry.exactForm, folded, [...folded].slice(0, 3).join(''), entry.exactForm.toUpperCase(), ...entry.glosses.slice(0, 1).flatMap((g) => g.split(/[ ;,]+/).slice(0, 2))]) {
        if (q.trim() !== '') queries.push({ q, language, page: 1, limit: 100 });
      }
    }
    return queries;
  } finally {
    db.close();
  }
}

function pageBytes(page: SearchPage): Buffer {
  const out = Buffer.alloc(page.itemsByteLength);
  page.writeItems(out, 0);
  return out;
}

/** A copy of the test snapshot with `change` run on it, in `dir`. */
function alteredCopy(dir: string, change: string): string {
  const copy = path.join(dir, `snapshot-${Math.random().toString(36).slice(2)}.sqlite`);
  fs.copyFileSync(testSnapshotPath(), copy);
  const db = new Database(copy);
  db.exec(change);
  db.close();
  return copy;
}

/** The build's way of saying a filter is too wide to keep: the reader then runs every lookup and MATCH. */
const WITHOUT_FILTERS = 'UPDATE key_filters SET bits = NULL';

describe('search with and without key filters', () => {
  let dir: string;
  let filtered: Snapshot;
  let unfiltered: Snapshot;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'key-filters-'));
    filtered = openSnapshot(testSnapshotPath());
    unfiltered = openSnapshot(alteredCopy(dir, WITHOUT_FILTERS));
  });
  after(() => {
    filtered.close();
    unfiltered.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('search - pages are the same bytes with the key filters and without', () => {
    const queries = snapshotQueries();
    assert.ok(queries.length > 5000, `${queries.length} queries`);
    for (const query of queries) {
      const a = filtered.search(query);
      const b = unfiltered.search(query);
      assert.equal(a.total, b.total, JSON.stringify(query));
      assert.ok(pageBytes(a).equals(pageBytes(b)), JSON.stringify(query));
    }
  });

  it('search - a page from the ranked-list cache is the page ranked anew', () => {
    const queries = snapshotQueries().filter((_, i) => i % 10 === 0);
    const fresh = openSnapshot(testSnapshotPath());
    try {
      for (const query of [...queries, ...queries.map((q) => ({ ...q, page: 2, limit: 5 }))]) {
        // The cache stores a list from its key's second search on, so the third answer comes from it.
        for (let i = 0; i < 2; i++) filtered.search(query);
        assert.ok(pageBytes(filtered.search(query)).equals(pageBytes(fresh.search(query))), JSON.stringify(query));
      }
    } finally {
      fresh.close();
    }
  });
});

describe('key filters stored in the snapshot', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'key-filters-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('stored key filters - the build stored the bytes the reader builds from the index', () => {
    const db = new Database(testSnapshotPath(), { readonly: true });
    try {
      const stored = readKeyFilters(db);
      const built = [[FORMS_FILTER, formKeyFilter(db)], [OTHER_FORMS_FILTER, otherFormsKeyFilter(db)], ...Object.entries(SEARCHED_COLUMNS).map(([table, columns]) => [table, termFilter(db, table, columns)] as const)] as const;
      assert.deepEqual([...stored.keys()].sort(), built.map(([name]) => name).sort());
      for (const [name, filter] of built) {
        assert.ok(filter, `the real corpora have a ${name} filter`);
        assert.ok(stored.get(name)?.toBytes().equals(filter.toBytes()), name);
      }
    } finally {
      db.close();
    }
  });

  /** Total found for each query by a reader of a copy of the test snapshot whose key_filters `change` altered. */
  function totalsWith(change: string, queries: readonly SearchQuery[]): number[] {
    const snapshot = openSnapshot(alteredCopy(dir, change));
    try {
      return queries.map((q) => snapshot.search(q).total);
    } finally {
      snapshot.close();
    }
  }

  it('stored key filters - a reader uses them, and builds its own when they are missing or of another format', () => {
    const queries = snapshotQueries().filter((_, i) => i % 50 === 0);
    const expected = totalsWith(WITHOUT_FILTERS, queries);
    assert.ok(expected.filter((n) => n > 0).length > 100, 'the queries find entries');
    assert.deepEqual(totalsWith('SELECT 1', queries), expected, 'the stored filters');
    // Empty filters say "absent" of everything: a reader that uses them finds nothing by lookup or MATCH.
    assert.ok(totalsWith('UPDATE key_filters SET bits = zeroblob(length(bits))', queries).every((n) => n === 0));
    assert.deepEqual(totalsWith("UPDATE key_filters SET bits = zeroblob(length(bits)), format = 'another format'", queries), expected, 'another format');
    assert.deepEqual(totalsWith('DELETE FROM key_filters', queries), expected);
    assert.deepEqual(totalsWith('UPDATE key_filters SET bits = zeroblob(12)', queries), expected, 'bytes no filter has');
  });
});
