// Rendering every page kind from the real test snapshot: every entry page within budget and marked with its
// language, the home page's words of the day, /about listing every corpus the snapshot was built from.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';

import Database from 'better-sqlite3';

import { openSnapshot } from '../../snapshot/reader/reader.ts';
import type { Snapshot } from '../../snapshot/reader/snapshot.ts';
import { corpusSources, readStats, wordsOfTheDay } from '../../services/api/web/data.ts';
import { aboutPage } from '../../services/api/web/pages/about.ts';
import { entryPage } from '../../services/api/web/pages/entry.ts';
import { escapeHtml } from '../../services/api/web/html.ts';
import { homePage } from '../../services/api/web/pages/home.ts';
import { languagePage } from '../../services/api/web/pages/language.ts';
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
    assert.deepEqual(words.map((w) => w.language.code).sort(), snapshot.languages().filter((l) => l.status === 'active').map((l) => l.code).sort());
    assert.equal(words.length, 12);
    const page = homePage({ assets: ASSETS, languages: snapshot.languages(), date, wordsOfTheDay: words }).value;
    for (const { entry } of words) {
      assert.ok(entry, 'each active language has a word for the day');
      assert.ok(page.includes(`lang="${entry.language}">${escapeHtml(entry.exactForm)}</a>`), entry.exactForm);
    }
  });

  it('language page - names, count, today\'s word and every source of the language with its licence', () => {
    const date = '2026-01-15';
    const hausa = snapshot.languages().find((l) => l.code === 'ha');
    assert.ok(hausa);
    const word = wordsOfTheDay(snapshot, date).find((w) => w.language.code === 'ha')?.entry;
    const sources = corpusSources(snapshot).filter((s) => s.language === 'ha');
    const page = languagePage({ assets: ASSETS, language: hausa, languages: snapshot.languages(), wordOfTheDay: word, sources }).value;
    assert.ok(page.includes(`${hausa.wordCount.toLocaleString('en-GB')} words`));
    assert.ok(word && page.includes(`lang="ha">${word.exactForm}</a>`));
    for (const id of ['wiktionary-ha', 'wikipron-ha', 'mfa-hausa', 'ntrex-ha', 'unilex-frequency-ha']) assert.ok(sources.some((s) => s.id === id), id);
    for (const s of sources) assert.ok(page.includes(s.licence.name), s.id);
    assert.ok(headingsInOrder(page));
  });

  it('entry page - pronunciations and NTREX examples with their sources and licences', () => {
    const kasa = snapshot.search({ q: 'kasa', language: 'ha', page: 1, limit: 1 }).items[0];
    const entry = snapshot.entry(kasa.slug);
    assert.ok(entry && entry.pronunciations.length > 1, JSON.stringify(entry?.pronunciations));
    const page = entryPage({ assets: ASSETS, entry }).value;
    for (const p of entry.pronunciations) assert.ok(page.includes(`/${p.ipa}/`) && page.includes(p.source.name), p.ipa);
    assert.match(page, /<h2>Other forms<\/h2>/);
    const withExample = snapshot.entry(snapshot.search({ q: 'hamba', language: 'zu', page: 1, limit: 1 }).items[0].slug);
    assert.ok(withExample);
    const examplePage = entryPage({ assets: ASSETS, entry: withExample }).value;
    assert.match(examplePage, /newstest2019 line \d+/);
    assert.ok(examplePage.includes('NTREX-128 (Federmann, Kocmi &amp; Xin 2022, Microsoft), CC BY-SA 4.0'), 'the example names its corpus');
  });

  it('about page - every corpus of the snapshot with its licence and attribution', () => {
    const sources = corpusSources(snapshot);
    const page = aboutPage({ assets: ASSETS, contact: undefined, sources, languages: snapshot.languages(), stats: readStats(snapshot) }).value;
    const ids = sources.map((s) => s.id).sort();
    const manifest = JSON.parse(readFileSync(new URL('../../corpora/sources.json', import.meta.url), 'utf8')) as { sources: { id: string }[] };
    assert.deepEqual(ids, manifest.sources.map((s) => s.id).sort(), 'every source of the manifest, preparing languages\' too');
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
