// The open-data downloads the build writes beside the snapshot: the files, their index, and how they follow
// the snapshot (--if-changed, a failed build).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';

import Database from 'better-sqlite3';

import { buildSnapshot } from '../../../snapshot/compiler/pipeline.ts';
import { silentProgress } from '../../../snapshot/compiler/progress.ts';
import { snapshotIsCurrent } from '../../../snapshot/compiler/up-to-date.ts';
import { DOWNLOAD_PENDING_BYTES, DownloadWriter } from '../../../snapshot/compiler/write/downloads.ts';
import type { EntryRows } from '../../../snapshot/compiler/write/entry-rows.ts';
import type { SourceManifest } from '../../../snapshot/compiler/manifest.ts';
import { openSnapshot } from '../../../snapshot/reader/reader.ts';
import type { Entry } from '../../../services/shared/schemas.ts';
import { DOWNLOADS_INDEX_NAME, DownloadIndexSchema, downloadsDirOf } from '../../../snapshot/format/downloads.ts';
import type { DownloadIndex } from '../../../snapshot/format/downloads.ts';
import { testSnapshotPath } from '../../support/snapshot.ts';
import { buildSample, copySample, readJson, tempDir, writeJson } from './build-helpers.ts';

function readIndex(snapshot: string): DownloadIndex {
  return DownloadIndexSchema.parse(JSON.parse(readFileSync(path.join(downloadsDirOf(snapshot), DOWNLOADS_INDEX_NAME), 'utf8')));
}

/** Every body the snapshot stores, in global rank order. */
function storedBodies(snapshot: string): string[] {
  const db = new Database(snapshot, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT body FROM entry_json ORDER BY global_rank').all() as { body: string }[]).map((r) => r.body);
  } finally {
    db.close();
  }
}

/** The lines of one file, after checking its bytes against the index. */
function checkedLines(snapshot: string, file: DownloadIndex['files'][number]): string[] {
  const bytes = readFileSync(path.join(downloadsDirOf(snapshot), file.name));
  assert.equal(bytes.length, file.bytes, `${file.name}: size`);
  assert.equal(createHash('sha256').update(bytes).digest('hex'), file.sha256, `${file.name}: sha256`);
  const text = gunzipSync(bytes).toString('utf8');
  assert.ok(text.endsWith('\n'), `${file.name}: ends with a newline`);
  return text.slice(0, -1).split('\n');
}

describe('downloads of the real test snapshot', () => {
  it('downloads - each file decompresses, its lines, size and sha256 match the index, every record names its source and licence', () => {
    const snapshot = testSnapshotPath();
    const index = readIndex(snapshot);
    const snap = openSnapshot(snapshot);
    try {
      assert.equal(index.version, snap.meta.version);
      assert.equal(index.format, 'jsonl+gzip');
      let lines = 0;
      for (const file of index.files) {
        const records = checkedLines(snapshot, file);
        assert.equal(records.length, file.entries, `${file.name}: lines`);
        lines += records.length;
        for (const line of records) {
          const entry = JSON.parse(line) as Entry;
          assert.equal(entry.source.id, file.source, line);
          assert.equal(entry.licence.spdx, file.licence, line);
          assert.equal(entry.language, file.language, line);
          assert.ok(entry.source.attribution && entry.licence.url && entry.licence.name, line);
        }
        // The records are the bodies GET /api/v1/words/{id} sends: the stored string, byte for byte.
        for (const line of [records[0], records[Math.floor(records.length / 2)], records[records.length - 1]]) {
          assert.equal(snap.entryJson(String((JSON.parse(line) as Entry).id)), line);
        }
      }
      assert.equal(lines, (JSON.parse(snap.statsJson()) as { totals: { entries: number } }).totals.entries);
    } finally {
      snap.close();
    }
  });

  it('downloads - one file per (language, source) its entries name, derived from the entries, not from a list', () => {
    const snapshot = testSnapshotPath();
    const named = new Set(storedBodies(snapshot).map((b) => {
      const e = JSON.parse(b) as Entry;
      return `${e.language} ${e.source.id}`;
    }));
    const index = readIndex(snapshot);
    assert.deepEqual(new Set(index.files.map((f) => `${f.language} ${f.source}`)), named);
    for (const f of index.files) assert.equal(f.url, `/downloads/${f.name}`);
    for (const f of index.files) assert.ok(f.name.includes(index.version), f.name);
  });
});

/** A second Igbo dictionary under the GPL: one word of its own, one the sample already has. */
function addGplSource(corpora: string): void {
  const manifest = readJson<{ sample: boolean; sources: SourceManifest[] }>(path.join(corpora, 'sources.json'));
  manifest.sources.push({
    id: 'extra-igbo',
    name: 'Extra Igbo words',
    language: 'ig',
    importer: 'igbo-api-json',
    file: 'igbo-api/extra.json',
    licence: { spdx: 'GPL-2.0-or-later', name: 'GNU General Public License v2.0 or later', url: 'https://www.gnu.org/licenses/old-licenses/gpl-2.0.html' },
    attribution: 'Extra Igbo words, GPL-2.0-or-later.',
    url: 'https://example.org/extra-igbo',
    role: 'lexicon',
    verified: false,
  });
  writeJson(path.join(corpora, 'sources.json'), manifest);
  writeJson(path.join(corpora, 'igbo-api', 'extra.json'), {
    akwụkwọ: [{ word: 'akwụkwọ', wordClass: 'NNC', definitions: ['book, paper'], examples: [], variations: [], stems: null }],
    egō: [{ word: 'egō', wordClass: 'NNC', definitions: ['cowrie'], examples: [], variations: [], stems: null }],
  });
}

describe('downloads of any manifest', () => {
  it('downloads - a new lexicon source gets its own file with its licence; sources merged in or quoted are credited', async (t) => {
    const dir = tempDir(t);
    const corpora = copySample(dir);
    addGplSource(corpora);
    const out = path.join(dir, 's.sqlite');
    await buildSample(corpora, out);
    const index = readIndex(out);
    const byKey = new Map(index.files.map((f) => [`${f.language} ${f.source}`, f]));
    assert.deepEqual([...byKey.keys()], ['ig extra-igbo', 'ig sample-igbo', 'yo sample-yoruba'], JSON.stringify(index, null, 2));
    const extra = byKey.get('ig extra-igbo');
    assert.equal(extra?.licence, 'GPL-2.0-or-later');
    assert.deepEqual(checkedLines(out, extra ?? assert.fail()).map((l) => (JSON.parse(l) as Entry).exactForm), ['akwụkwọ']);
    // egō is in both Igbo dictionaries: its entry names the first, and carries the GPL source's sense too.
    assert.deepEqual(byKey.get('ig sample-igbo')?.includes.map((s) => [s.source, s.role, s.licence]), [
      ['extra-igbo', 'lexicon', 'GPL-2.0-or-later'],
      ['sample-frequency-ig', 'frequency', 'CC0-1.0'],
    ]);
    assert.deepEqual(byKey.get('yo sample-yoruba')?.includes.map((s) => [s.source, s.role]), [
      ['sample-frequency-yo', 'frequency'],
      ['sample-yoruba-sentences', 'examples'],
    ]);
  });

  it('downloads - worker threads and the in-process path write the same bytes', async (t) => {
    const dir = tempDir(t);
    const corpora = copySample(dir);
    await buildSample(corpora, path.join(dir, 'a.sqlite'), '2026-01-01', 0);
    await buildSample(corpora, path.join(dir, 'b.sqlite'), '2026-03-01', 2);
    assert.deepEqual(readIndex(path.join(dir, 'b.sqlite')), readIndex(path.join(dir, 'a.sqlite')));
  });
});

describe('downloads beside their snapshot', () => {
  it('downloads - --if-changed rebuilds when they are missing or name another version', async (t) => {
    const dir = tempDir(t);
    const corpora = copySample(dir);
    const out = path.join(dir, 's.sqlite');
    await buildSample(corpora, out);
    assert.equal(snapshotIsCurrent(out, corpora, undefined), true);
    const indexFile = path.join(downloadsDirOf(out), DOWNLOADS_INDEX_NAME);
    const index = readFileSync(indexFile, 'utf8');
    writeFileSync(indexFile, index.replace(/"version": "[^"]+"/, '"version": "v0-000000000000"'));
    assert.equal(snapshotIsCurrent(out, corpora, undefined), false);
    rmSync(downloadsDirOf(out), { recursive: true });
    assert.equal(snapshotIsCurrent(out, corpora, undefined), false);
    await buildSample(corpora, out);
    assert.equal(snapshotIsCurrent(out, corpora, undefined), true);
  });

  it('downloads - a rebuild in place replaces them whole: only the new version\'s files remain', async (t) => {
    const dir = tempDir(t);
    const corpora = copySample(dir);
    const out = path.join(dir, 's.sqlite');
    const first = (await buildSample(corpora, out)).report;
    addGplSource(corpora);
    const second = (await buildSample(corpora, out)).report;
    assert.notEqual(second.contentHash, first.contentHash);
    const index = readIndex(out);
    assert.deepEqual(readdirSync(downloadsDirOf(out)).sort(), [...index.files.flatMap((f) => [f.name, f.csv.name]), DOWNLOADS_INDEX_NAME].sort());
    assert.equal(second.downloads.files, index.files.length);
  });

  it('downloads - a failed build leaves the previous files in place and no temporary directory', async (t) => {
    const dir = tempDir(t);
    const corpora = copySample(dir);
    const out = path.join(dir, 's.sqlite');
    await buildSample(corpora, out);
    const before = readFileSync(path.join(downloadsDirOf(out), DOWNLOADS_INDEX_NAME), 'utf8');
    // A failure after every entry went to the downloads, before they are finished and moved into place.
    const failing = { ...silentProgress, phase: (name: string) => {
      if (name === 'indexes and bodies') throw new Error('stopped after the entries');
    } };
    await assert.rejects(buildSnapshot({ out, corpora, date: '2026-02-01', progress: failing }), /stopped after the entries/);
    assert.equal(readFileSync(path.join(downloadsDirOf(out), DOWNLOADS_INDEX_NAME), 'utf8'), before);
    assert.deepEqual(readdirSync(dir).sort(), ['corpora', 's.sqlite', 's.sqlite.downloads', 's.sqlite.report.json', 's.sqlite.sha256']);
  });
});

function rows(count: number, bodyBytes: number): EntryRows[] {
  const filler = 'x'.repeat(bodyBytes);
  return Array.from({ length: count }, (_, i): EntryRows => ({
    facts: { globalRank: i + 1, id: i + 1, language: 'ig', partOfSpeech: 'noun', isCommon: false, frequencyRank: null, glossCount: 0, exampleCount: 0, pronunciationCount: 0, classroomFit: true },
    slug: `w${i}`, folded: `w${i}`,
    summary: JSON.stringify({ id: i + 1, language: 'ig', headword: `w${i}`, exactForm: `w${i}`, slug: `w${i}`, pronunciation: null, isCommon: false, isVerified: false, frequencyRank: null, glosses: ['a "quoted", word'], partOfSpeech: 'noun' }),
    body: Buffer.from(JSON.stringify({ id: i + 1, filler: `${i}${filler}` })),
    forms: [], head: '', vars: '', tags: '', gloss: null, otherForms: [], source: 'src', contributors: [],
  }));
}

describe('DownloadWriter', () => {
  it('DownloadWriter - is congested past its bound of uncompressed bytes and drains as zlib catches up', async (t) => {
    const dir = tempDir(t);
    const source: SourceManifest = {
      id: 'src', name: 'Source', language: 'ig', importer: 'igbo-api-json', file: 'x.json',
      licence: { spdx: 'CC0-1.0', name: 'CC0', url: 'https://creativecommons.org/publicdomain/zero/1.0/' },
      attribution: 'Source, CC0.', url: 'https://example.org/', role: 'lexicon', verified: true,
    };
    const writer = new DownloadWriter(path.join(dir, 'd'), [source], new Map([['ig', 'Igbo']]));
    const batch = rows(Math.ceil((DOWNLOAD_PENDING_BYTES * 1.25) / 100_000), 100_000);
    assert.equal(writer.congested, false);
    writer.write(batch);
    assert.equal(writer.congested, true, 'a batch larger than the bound congests the writer');
    await writer.drained();
    assert.equal(writer.congested, false);
    const index = await writer.finish('v5-000000000001', new Map());
    const [file] = index.files;
    assert.equal(file.entries, batch.length);
    const bytes = readFileSync(path.join(dir, 'd', file.name));
    assert.equal(gunzipSync(bytes).toString(), `${batch.map((r) => Buffer.from(r.body).toString()).join('\n')}\n`);
    const csv = readFileSync(path.join(dir, 'd', file.csv.name), 'utf8').split('\r\n');
    assert.equal(csv.length, batch.length + 2, 'a header, a row per entry and the last line break');
    assert.equal(csv[1], '1,ig,w0,w0,noun,,"a ""quoted"", word",false,,/words/w0,src,CC0-1.0');
    assert.ok(existsSync(path.join(dir, 'd', DOWNLOADS_INDEX_NAME)));
  });
});
