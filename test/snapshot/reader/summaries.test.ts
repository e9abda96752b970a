// The word summaries held in memory (SummaryStore): pages are the same bytes whether a summary is held or read
// from the snapshot, and a budget keeps the best-ranked entries.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import Database from 'better-sqlite3';

import { openSnapshot } from '../../../snapshot/reader/reader.ts';
import type { SearchPage, SearchQuery, Snapshot } from '../../../snapshot/reader/snapshot.ts';
import { SummaryStore } from '../../../snapshot/reader/summaries.ts';
import { testSnapshotPath } from '../../support/snapshot.ts';

const QUERIES: SearchQuery[] = [
  { q: 'omi', page: 1, limit: 100 },
  { q: 'ọ̀run', language: 'yo', page: 1, limit: 20 },
  { q: 'water', page: 2, limit: 7 },
  { q: 'mmiri', language: 'ig', page: 1, limit: 50 },
  { q: 'qxzqxzqxzq', page: 1, limit: 20 },
  { language: 'yo', page: 3, limit: 100 },
  { partOfSpeech: 'verb', page: 40, limit: 25 },
];

function bytes(page: SearchPage): Buffer {
  const out = Buffer.alloc(page.itemsByteLength + 8, 0x23);
  const end = page.writeItems(out, 4);
  assert.equal(end, 4 + page.itemsByteLength, 'writeItems ends where itemsByteLength says');
  assert.equal(out.subarray(end).toString('latin1'), '####', 'nothing written past the items');
  return out.subarray(4, end);
}

let held: Snapshot;
let fromDisk: Snapshot;
before(() => {
  held = openSnapshot(testSnapshotPath());
  fromDisk = openSnapshot(testSnapshotPath(), { summaryBudgetBytes: 0 });
});
after(() => {
  held.close();
  fromDisk.close();
});

describe('summaries', () => {
  it('summaries - a page is the same bytes with every summary held and with none', () => {
    for (const query of QUERIES) {
      const a = held.search(query);
      const b = fromDisk.search(query);
      assert.equal(a.count, b.count, JSON.stringify(query));
      assert.ok(bytes(a).equals(bytes(b)), JSON.stringify(query));
      assert.deepEqual(a.items, b.items, JSON.stringify(query));
    }
  });

  it('summaries - the items are the stored summary with matchType and score, comma-separated', () => {
    const page = held.search({ q: 'omi', page: 1, limit: 5 });
    assert.ok(page.count > 1);
    const items = JSON.parse(`[${bytes(page).toString('utf8')}]`) as Record<string, unknown>[];
    const db = new Database(testSnapshotPath(), { readonly: true });
    try {
      const summary = db.prepare('SELECT j.summary AS s FROM entries e JOIN entry_summary j ON j.global_rank = e.global_rank WHERE e.id = ?').pluck();
      for (const item of items) {
        const { matchType, score, ...stored } = item;
        assert.deepEqual(stored, JSON.parse(summary.get(item.id) as string));
        assert.equal(typeof matchType, 'string');
        assert.equal(typeof score, 'number');
      }
    } finally {
      db.close();
    }
  });

  it('summaries - a budget holds the best-ranked entries whole and reads the rest', () => {
    const db = new Database(testSnapshotPath(), { readonly: true });
    try {
      const sizes = db.prepare('SELECT length(CAST(summary AS BLOB)) FROM entry_summary ORDER BY global_rank').pluck().all() as number[];
      assert.equal(new SummaryStore(db).held, sizes.length, 'the real corpora fit the default budget');
      const budget = sizes[0] + sizes[1] + sizes[2] - 1;
      const store = new SummaryStore(db, budget);
      assert.equal(store.held, 2);
      for (const globalRank of [1, 2, 3, sizes.length]) {
        const { source, start, end } = store.get(globalRank);
        const stored = db.prepare('SELECT summary FROM entry_summary WHERE global_rank = ?').pluck().get(globalRank) as string;
        assert.equal(source.toString('utf8', start, end), stored, `globalRank ${globalRank}`);
      }
      assert.throws(() => store.get(sizes.length + 1), /no entry at rank/);
    } finally {
      db.close();
    }
  });
});
