// The real-corpora snapshot through the reader: counts, provenance, bodies and lookups by id or slug.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import Database from 'better-sqlite3';

import { openSnapshot } from '../../../snapshot/reader/reader.ts';
import type { CorpusSource, Snapshot } from '../../../snapshot/reader/snapshot.ts';
import { EntrySchema, LanguagesSchema, StatsSchema } from '../../../services/shared/schemas.ts';
import { testSnapshotPath } from '../../support/snapshot.ts';

let snap: Snapshot;
before(() => {
  snap = openSnapshot(testSnapshotPath());
});
after(() => snap.close());

describe('openSnapshot', () => {
  it('openSnapshot - serves the 12 languages with 1,000 glossed entries, the 12 others as preparing with 0 (real corpora)', (t) => {
    if (snap.meta.sample) return t.skip('built from the sample corpus');
    const langs = LanguagesSchema.parse(JSON.parse(snap.languagesJson())).data;
    assert.ok((langs.find((l) => l.code === 'ig')?.wordCount ?? 0) >= 8000);
    assert.ok((langs.find((l) => l.code === 'yo')?.wordCount ?? 0) >= 5500);
    const active = langs.filter((l) => l.status === 'active');
    assert.deepEqual(active.map((l) => l.code).sort(), ['af', 'am', 'ha', 'ig', 'ki', 'mg', 'om', 'ss', 'sw', 'xh', 'yo', 'zu'], JSON.stringify(langs));
    for (const l of active) assert.ok(l.wordCount >= 1000, JSON.stringify(l));
    const preparing = langs.filter((l) => l.status === 'preparing');
    assert.equal(preparing.length, 12, JSON.stringify(preparing));
    for (const l of preparing) assert.equal(l.wordCount, 0, JSON.stringify(l));
  });
  it('openSnapshot - every entry validates against EntrySchema and names its source and licence', () => {
    const db = new Database(snap.meta.path, { readonly: true });
    try {
      for (const row of db.prepare('SELECT body FROM entry_json').iterate() as Iterable<{ body: string }>) {
        const entry = EntrySchema.parse(JSON.parse(row.body));
        assert.ok(entry.source.id && entry.source.attribution && entry.licence.spdx && entry.licence.url, entry.slug);
        for (const e of entry.examples) assert.ok(e.source.id && e.licence.spdx, entry.slug);
      }
    } finally {
      db.close();
    }
  });
  it('openSnapshot - planner statistics without STAT4 samples (they re-prepare statements on every new value)', () => {
    const db = new Database(snap.meta.path, { readonly: true });
    try {
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'sqlite_stat%'").pluck().all() as string[]).sort();
      assert.deepEqual(tables, ['sqlite_stat1']);
    } finally {
      db.close();
    }
  });
  it('openSnapshot - facets give every entry its language and part of speech', () => {
    const db = new Database(snap.meta.path, { readonly: true });
    try {
      const facets = new Map(
        (db.prepare('SELECT name, labels, codes FROM facets').all() as { name: string; labels: string; codes: Buffer }[]).map((r) => [
          r.name,
          { labels: JSON.parse(r.labels) as string[], codes: r.codes },
        ]),
      );
      const language = facets.get('language');
      const pos = facets.get('pos');
      assert.ok(language && pos);
      for (const row of db.prepare('SELECT global_rank AS globalRank, language, pos FROM entries').iterate() as Iterable<{ globalRank: number; language: string; pos: string }>) {
        assert.equal(language.labels[language.codes[row.globalRank] - 1], row.language, `globalRank ${row.globalRank}`);
        assert.equal(pos.labels[pos.codes[row.globalRank] - 1], row.pos, `globalRank ${row.globalRank}`);
      }
    } finally {
      db.close();
    }
  });
  it('openSnapshot - stats body matches the languages body and the meta', () => {
    const stats = StatsSchema.parse(JSON.parse(snap.statsJson()));
    const langs = LanguagesSchema.parse(JSON.parse(snap.languagesJson())).data;
    for (const l of langs.filter((x) => x.status === 'active')) assert.equal(stats.entriesByLanguage[l.code], l.wordCount);
    assert.equal(stats.totals.entries, langs.reduce((a, l) => a + l.wordCount, 0));
    assert.equal(stats.snapshot.contentHash, snap.meta.contentHash);
    assert.equal(stats.snapshot.sample, snap.meta.sample);
  });
  it('entryJson - looks entries up by integer id or slug, the same body either way', () => {
    const item = snap.search({ q: 'omi', language: 'yo', page: 1, limit: 1 }).items[0];
    const byId = snap.entryJson(String(item.id));
    assert.ok(byId);
    assert.equal(snap.entryJson(item.slug), byId);
    assert.equal(snap.entry(item.slug)?.exactForm, 'omi');
    assert.equal(snap.entryJson('999999999999999999999'), undefined);
    assert.equal(snap.entryJson('no-such-slug'), undefined);
    assert.equal(snap.entryJson(''), undefined);
  });
  it('findActiveLanguage - resolves codes and slugs case-insensitively, active languages only', () => {
    assert.equal(snap.findActiveLanguage('IG')?.code, 'ig');
    assert.equal(snap.findActiveLanguage('yoruba')?.code, 'yo');
    assert.equal(snap.findActiveLanguage('hausa')?.code, 'ha');
    assert.equal(snap.findActiveLanguage('tigrinya'), undefined, 'preparing');
    assert.equal(snap.findActiveLanguage('xx'), undefined);
  });
  it('sources - lists every manifest source with its licence and the records the build imported from it', () => {
    const report = JSON.parse(fs.readFileSync(`${snap.meta.path}.report.json`, 'utf8')) as { sample: boolean; sources: { source: string; read: number; imported: number }[] };
    const manifestFile = path.resolve(import.meta.dirname, '../../../corpora', report.sample ? 'sample/sources.json' : 'sources.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { sources: Omit<CorpusSource, 'records'>[] };
    const imported = new Map(report.sources.map((r) => [r.source, r.imported]));
    const expected = manifest.sources.map(({ id, name, language, role, url, attribution, licence, headwordSpelling }) => ({
      id, name, language, role, url, attribution, licence, records: imported.get(id) ?? 0, ...(headwordSpelling ? { headwordSpelling } : {}),
    }));
    assert.deepEqual(snap.sources?.(), expected);
    // Every source gave the build records: none was read as empty. (A pronunciation list of a language not served
    // yet reads its rows and imports none: they have no entry to be shown on.)
    const read = new Map(report.sources.map((r) => [r.source, r.read]));
    assert.deepEqual(expected.filter((s) => !read.get(s.id)).map((s) => s.id), []);
  });
  it('openSnapshot - refuses a missing file', () => {
    assert.throws(() => openSnapshot('/nonexistent/snapshot.sqlite'));
  });
});
