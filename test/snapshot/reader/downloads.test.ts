// openDownloads(): what a worker opens beside its snapshot, and what it refuses to serve.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { describe, it } from 'node:test';

import { openDownloads } from '../../../snapshot/reader/downloads.ts';
import { DOWNLOADS_INDEX_NAME, downloadCsvName, downloadFileName, downloadsDirOf } from '../../../snapshot/format/downloads.ts';
import type { DownloadIndex } from '../../../snapshot/format/downloads.ts';

const VERSION = 'v5-0123456789ab';

/** A snapshot path in a temp dir with a downloads directory of `version` holding one file. */
function fixture(t: { after: (fn: () => void) => void }, version = VERSION) {
  const dir = mkdtempSync(path.join(tmpdir(), 'downloads-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const snapshot = path.join(dir, 'snapshot-1.sqlite');
  const downloads = downloadsDirOf(snapshot);
  mkdirSync(downloads);
  const name = downloadFileName('ig', 'igbo-api', version);
  const bytes = Buffer.from('not really gzip, but bytes to serve\n'.repeat(5000));
  writeFileSync(path.join(downloads, name), bytes);
  const csvName = downloadCsvName('ig', 'igbo-api', version);
  const csvBytes = Buffer.from('\uFEFFid,headword\r\n1,mmiri\r\n');
  writeFileSync(path.join(downloads, csvName), csvBytes);
  const index: DownloadIndex = {
    version,
    format: 'jsonl+gzip',
    files: [{
      name, url: `/downloads/${name}`, language: 'ig', languageName: 'Igbo', source: 'igbo-api', sourceName: 'Igbo API',
      sourceUrl: 'https://example.org', licence: 'Apache-2.0', licenceName: 'Apache License 2.0',
      licenceUrl: 'https://www.apache.org/licenses/LICENSE-2.0', attribution: 'Igbo API.', entries: 5000,
      bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), includes: [],
      csv: { name: csvName, url: `/downloads/${csvName}`, bytes: csvBytes.length, sha256: createHash('sha256').update(csvBytes).digest('hex') },
    }],
  };
  const writeIndex = (value: unknown) => writeFileSync(path.join(downloads, DOWNLOADS_INDEX_NAME), JSON.stringify(value));
  writeIndex(index);
  return { snapshot, downloads, name, bytes, index, writeIndex };
}

describe('openDownloads', () => {
  it('openDownloads - serves exactly the names its index lists, whole, with the sha256 as validator', async (t) => {
    const f = fixture(t);
    const downloads = openDownloads(f.snapshot, VERSION);
    t.after(() => downloads.close());
    assert.equal(downloads.problem, undefined);
    assert.deepEqual(downloads.index, f.index);
    const file = downloads.file(f.name);
    assert.equal(file?.etag, `"${f.index.files[0].sha256}"`);
    assert.equal(await text(file?.read() ?? assert.fail('listed file not served')), f.bytes.toString());
    for (const name of [DOWNLOADS_INDEX_NAME, `../${path.basename(f.snapshot)}`, '..', '', f.name.toUpperCase(), `${f.name}/`, 'constructor']) {
      assert.equal(downloads.file(name), undefined, name);
    }
  });

  it('openDownloads - two reads of one file at once each get the whole file', async (t) => {
    const f = fixture(t);
    const downloads = openDownloads(f.snapshot, VERSION);
    t.after(() => downloads.close());
    const file = downloads.file(f.name) ?? assert.fail('listed file not served');
    const [a, b] = await Promise.all([text(file.read()), text(file.read())]);
    assert.equal(a, f.bytes.toString());
    assert.equal(b, f.bytes.toString());
  });

  it('openDownloads - keeps serving the file it opened after a rebuild or a prune replaces or removes it', async (t) => {
    const f = fixture(t);
    const downloads = openDownloads(f.snapshot, VERSION);
    t.after(() => downloads.close());
    rmSync(f.downloads, { recursive: true });
    mkdirSync(f.downloads);
    writeFileSync(path.join(f.downloads, f.name), 'other bytes');
    assert.equal(await text(downloads.file(f.name)?.read() ?? assert.fail()), f.bytes.toString());
  });

  it('openDownloads - serves nothing, and says why, when the downloads are not this snapshot\'s', (t) => {
    const cases: Array<[string, (f: ReturnType<typeof fixture>) => void, RegExp]> = [
      ['another version', () => {}, /downloads of snapshot v5-0123456789ab, not of v5-ffffffffffff/],
      ['no directory', (f) => rmSync(f.downloads, { recursive: true }), /no downloads index \(ENOENT\)/],
      ['not JSON', (f) => writeFileSync(path.join(f.downloads, DOWNLOADS_INDEX_NAME), '{'), /not JSON/],
      ['a name that leaves the directory', (f) => f.writeIndex({ ...f.index, files: [{ ...f.index.files[0], name: '../x.jsonl.gz' }] }), /not a downloads index/],
      ['a file of another size', (f) => writeFileSync(path.join(f.downloads, f.name), 'short'), /5 bytes, the index says 180000/],
      ['a listed file missing', (f) => rmSync(path.join(f.downloads, f.name)), /cannot open \(ENOENT\)/],
    ];
    for (const [label, spoil, problem] of cases) {
      const f = fixture(t);
      spoil(f);
      const downloads = openDownloads(f.snapshot, label === 'another version' ? 'v5-ffffffffffff' : VERSION);
      assert.equal(downloads.index, undefined, label);
      assert.match(downloads.problem ?? '', problem, label);
      assert.equal(downloads.file(f.name), undefined, label);
    }
  });
});
