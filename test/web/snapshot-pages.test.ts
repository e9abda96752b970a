// Rendering every page kind from the real test snapshot: every entry page within budget and marked with its
// language, the home page's words of the day, /about listing every corpus the snapshot was built from.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';

import Database from 'better-sqlite3';

import { openSnapshot } from '../../services/api/snapshot/reader.ts';
import type { Snapshot } from '../../services/api/snapshot/snapshot.ts';
import { corpusSources, readStats, wordsOfTheDay } from '../../services/api/web/data.ts';
import { aboutPage } from '../../services/api/web/pages/about.ts';
import { entryPage } from '../../services/api/web/pages/entry.ts';
import { homePage } from '../../services/api/web/pages/home.ts';
import { testSnapshotPath } from '../support/snapshot.ts';
import { ASSETS, headingsInOrder } from './fixtures.ts';

const CSS_BYTES = readFileSync(new URL('../../services/api/web/assets/site.css', import.meta.url)).length;
const ENTRY_PAGE_BUDGET_BYTES = 50 * 1024;

let snapshot: Snapshot;
before(() => {
  snapshot = openSnapshot(testSnapshotPath());
});
after(() => snapshot.close());

/** Every slug of the snapshot (the reader has no listing call; the table is read only to enumerate). */
function allSlugs(path: string): string[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT slug FROM entries').all() as Array<{ slug: string }>).map((r) => r.slug);
  } finally {
    db.close();
  }
}

describe('entry pages of the real snapshot', () => {
  it('entry pages of the real snapshot - every one is under 50 KB with CSS, lang-marked, headings in order', () => {
    const slugs = allSlugs(snapshot.meta.path);
    assert.ok(slugs.length > 13_000, `only ${slugs.length} entries`);
    let largest = { slug: '', bytes: 0 };
    for (const slug of slugs) {
      const entry = snapshot.entry(slug);
      assert.ok(entry, slug);
      const page = entryPage({ assets: ASSETS, entry }).value;
      const bytes = Buffer.byteLength(page) + CSS_BYTES;
      if (bytes > largest.bytes) largest = { slug, bytes };
      if (!page.includes(`<h1 class="headword" lang="${entry.language}">`)) assert.fail(`${slug}: headword not lang-marked`);
      if (!headingsInOrder(page)) assert.fail(`${slug}: headings out of order`);
      if (!page.includes(entry.licence.name)) assert.fail(`${slug}: licence missing`);
    }
    assert.ok(largest.bytes < ENTRY_PAGE_BUDGET_BYTES, `largest entry page: ${JSON.stringify(largest)}`);
  });
});

describe('pages from snapshot data', () => {
  it('home page - a word of the day for each active language, tone marks intact', () => {
    const date = '2026-01-15';
    const words = wordsOfTheDay(snapshot, date);
    assert.deepEqual(words.map((w) => w.language.code).sort(), ['ig', 'yo']);
    const page = homePage({ assets: ASSETS, languages: snapshot.languages(), date, wordsOfTheDay: words }).value;
    for (const { entry } of words) {
      assert.ok(entry, 'each active language has a word for the day');
      assert.ok(page.includes(`lang="${entry.language}">${entry.exactForm}</a>`), entry.exactForm);
    }
  });

  it('about page - every corpus of the snapshot with its licence and attribution', () => {
    const sources = corpusSources(snapshot);
    const page = aboutPage({ assets: ASSETS, contact: undefined, sources, languages: snapshot.languages(), stats: readStats(snapshot) }).value;
    const ids = sources.map((s) => s.id).sort();
    assert.deepEqual(ids, ['igbo-api', 'ud-yoruba-ytb', 'unilex-frequency-ig', 'unilex-frequency-yo', 'wiktionary-yoruba']);
    for (const s of sources) {
      assert.ok(page.includes(s.licence.spdx), s.id);
      assert.ok(page.includes(s.attribution.replace(/&/g, '&amp;')), s.id);
    }
    const stats = readStats(snapshot);
    assert.ok(stats);
    assert.ok(page.includes(`${stats.totals.entries.toLocaleString('en-GB')} entries`));
    assert.ok(headingsInOrder(page));
  });
});
