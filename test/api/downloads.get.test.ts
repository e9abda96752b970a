// GET /downloads/index.json and GET /downloads/{name} on the real stack over the real test snapshot: the files as
// built, their headers, 304s, and no metering.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';

import type { Entry } from '../../services/shared/schemas.ts';
import { DOWNLOADS_INDEX_NAME, DownloadIndexSchema, downloadsDirOf } from '../../snapshot/format/downloads.ts';
import type { DownloadIndex } from '../../snapshot/format/downloads.ts';
import { RATE_HEADERS, startApi } from './support.ts';

import type { Api } from './support.ts';

interface Got {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

const showGot = (g: Got): string => `${g.status} ${JSON.stringify(Object.fromEntries(g.headers))} ${g.bytes.toString('utf8', 0, 300)}`;

let api: Api;
let index: DownloadIndex;

async function get(urlPath: string, headers: Record<string, string> = {}): Promise<Got> {
  const res = await fetch(`${api.stack.baseUrl}${urlPath}`, { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

before(async () => {
  api = await startApi({ workers: 1 });
  const got = await get('/downloads/index.json');
  assert.equal(got.status, 200, showGot(got));
  index = DownloadIndexSchema.parse(JSON.parse(got.bytes.toString('utf8')));
});
after(async () => {
  await api?.stack.stop();
});

describe('GET /downloads/index.json', () => {
  it('GET /downloads/index.json - the index the build wrote beside the snapshot, with a validator and no key', async () => {
    const got = await get('/downloads/index.json');
    const onDisk = readFileSync(path.join(downloadsDirOf(api.stack.snapshotPath), DOWNLOADS_INDEX_NAME));
    assert.ok(got.bytes.equals(onDisk), showGot(got));
    assert.equal(got.headers.get('content-type'), 'application/json; charset=utf-8', showGot(got));
    assert.equal(got.headers.get('cache-control'), 'public, max-age=300', showGot(got));
    assert.match(got.headers.get('etag') ?? '', /^"[0-9a-f]{32}"$/, showGot(got));
    const stats = await api.call('/api/v1/stats', { key: api.key });
    assert.equal(index.version, (stats.body as { snapshot: { version: string } }).snapshot.version);
    assert.ok(index.files.length >= 2, showGot(got));
  });

  it('GET /downloads/index.json - 304 when If-None-Match names its ETag', async () => {
    const etag = (await get('/downloads/index.json')).headers.get('etag') ?? '';
    const got = await get('/downloads/index.json', { 'if-none-match': etag });
    assert.equal(got.status, 304, showGot(got));
    assert.equal(got.bytes.length, 0, showGot(got));
    assert.equal(got.headers.get('etag'), etag, showGot(got));
  });
});

describe('GET /downloads/{name}', () => {
  it('GET /downloads/{name} - every file as stored: its size, sha256, lines and records match the index', async () => {
    for (const file of index.files) {
      const got = await get(file.url);
      assert.equal(got.status, 200, showGot(got));
      assert.equal(got.headers.get('content-type'), 'application/gzip', showGot(got));
      assert.equal(got.headers.get('content-encoding'), null, `not re-encoded: ${showGot(got)}`);
      assert.equal(got.headers.get('content-length'), String(file.bytes), showGot(got));
      assert.equal(got.headers.get('content-disposition'), `attachment; filename="${file.name}"`, showGot(got));
      assert.equal(got.headers.get('etag'), `"${file.sha256}"`, showGot(got));
      assert.equal(got.headers.get('cache-control'), 'public, max-age=31536000, immutable', showGot(got));
      assert.equal(got.bytes.length, file.bytes, file.name);
      assert.equal(createHash('sha256').update(got.bytes).digest('hex'), file.sha256, file.name);
      const lines = gunzipSync(got.bytes).toString('utf8').split('\n');
      assert.equal(lines.pop(), '', `${file.name} ends with a newline`);
      assert.equal(lines.length, file.entries, file.name);
      for (const line of lines) {
        const entry = JSON.parse(line) as Entry;
        assert.equal(entry.source.id, file.source, line);
        assert.equal(entry.licence.spdx, file.licence, line);
      }
      // A record is the body the API sends for its entry, byte for byte.
      for (const line of [lines[0], lines[lines.length - 1]]) {
        const reply = await api.call(`/api/v1/words/${(JSON.parse(line) as Entry).id}`, { key: api.key });
        assert.equal(reply.text, line, file.name);
      }
    }
  });

  it('GET /downloads/{name} - each file\'s CSV: UTF-8 with a byte-order mark, a header, one row per entry, the licence on each', async () => {
    for (const file of index.files) {
      const got = await get(file.csv.url);
      assert.equal(got.status, 200, showGot(got));
      assert.equal(got.headers.get('content-type'), 'text/csv; charset=utf-8', showGot(got));
      assert.equal(got.headers.get('content-disposition'), `attachment; filename="${file.csv.name}"`, showGot(got));
      assert.equal(got.bytes.length, file.csv.bytes, file.csv.name);
      assert.equal(createHash('sha256').update(got.bytes).digest('hex'), file.csv.sha256, file.csv.name);
      const text = got.bytes.toString('utf8');
      assert.ok(text.startsWith('\uFEFFid,language,headword,exact_form,part_of_speech,pronunciation,glosses,is_common,frequency_rank,page,source,licence\r\n'), text.slice(0, 200));
      const rows = text.slice(1).split('\r\n');
      assert.equal(rows.pop(), '', `${file.csv.name} ends with a line break`);
      assert.equal(rows.length, file.entries + 1, file.csv.name);
      // The last two fields never need quoting: every row ends with the file's source and licence.
      assert.ok(rows.slice(1).every((r) => r.endsWith(`,${file.source},${file.licence}`)), file.csv.name);
    }
  });

  it('GET /downloads/{name} - 304 when If-None-Match names its ETag, weak or in a list', async () => {
    const file = index.files[0];
    for (const header of [`"${file.sha256}"`, `W/"${file.sha256}"`, `"other", "${file.sha256}"`, '*']) {
      const got = await get(file.url, { 'if-none-match': header });
      assert.equal(got.status, 304, `${header}: ${showGot(got)}`);
      assert.equal(got.bytes.length, 0, showGot(got));
      assert.equal(got.headers.get('etag'), `"${file.sha256}"`, showGot(got));
    }
    const stale = await get(file.url, { 'if-none-match': '"0000"' });
    assert.equal(stale.status, 200, showGot(stale));
  });

  it('GET /downloads/{name} - not metered: no key needed, no rate-limit headers with or without one', async () => {
    const file = index.files[0];
    for (const [urlPath, headers] of [[file.url, {}], [file.url, { 'x-api-key': api.key }], ['/downloads/index.json', { 'x-api-key': api.key }]] as const) {
      const got = await get(urlPath, headers);
      assert.equal(got.status, 200, showGot(got));
      for (const h of RATE_HEADERS) assert.equal(got.headers.get(h), null, `${h}: ${showGot(got)}`);
    }
  });
});
