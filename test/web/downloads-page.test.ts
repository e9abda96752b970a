// The /downloads page: every file of the edition, what each licence asks in plain words, the attribution to copy;
// rendered from the real test snapshot's index and from hostile or unusual ones, and served by the real app.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { createApp } from '../../services/api/app.ts';
import { WorkerCounters } from '../../services/api/metrics/worker-stats.ts';
import type { Deps } from '../../services/api/deps.ts';
import { openSnapshot } from '../../snapshot/reader/reader.ts';
import type { Snapshot } from '../../snapshot/reader/snapshot.ts';
import { escapeHtml } from '../../services/api/web/html.ts';
import { attributionLine, downloadsPage } from '../../services/api/web/pages/downloads.ts';
import type { DownloadFile, DownloadIndex } from '../../snapshot/format/downloads.ts';
import { freePort } from '../support/free-port.ts';
import { testSnapshotPath } from '../support/snapshot.ts';
import { ASSETS, HOSTILE, headingsInOrder } from './fixtures.ts';

let snapshot: Snapshot;
let base = '';
let stop = (): void => {};

before(async () => {
  snapshot = openSnapshot(testSnapshotPath());
  const port = await freePort();
  const deps: Deps = {
    config: { port, host: '127.0.0.1', natsUrl: 'nats://127.0.0.1:1', dataDir: '.tmp', snapshotPath: snapshot.meta.path, trustProxy: [], workerName: 'downloads-page-test', requestLog: { mode: 'all', sampleEvery: 1 } },
    snapshot,
    meter: {
      admit: () => Promise.reject(new Error('pages are not metered')),
      register: () => Promise.reject(new Error('pages do not register')),
      health: () => Promise.resolve({ reachable: true, canCommit: true }),
      close: () => Promise.resolve(),
    },
    log: { info: () => {}, error: () => {}, flush: () => {} },
    now: Date.now,
    stats: new WorkerCounters(),
  };
  const app = createApp(deps);
  await app.listen(port, '127.0.0.1');
  base = `http://127.0.0.1:${port}`;
  stop = () => {
    app.close();
    snapshot.close();
  };
});
after(() => stop());

const gplFile: DownloadFile = {
  name: 'sw-freedict-swahili-v5-0123456789ab.jsonl.gz',
  url: '/downloads/sw-freedict-swahili-v5-0123456789ab.jsonl.gz',
  language: 'sw', languageName: 'Swahili', source: 'freedict-swahili', sourceName: 'FreeDict Swahili–English',
  sourceUrl: 'https://freedict.org', licence: 'GPL-2.0-or-later', licenceName: 'GNU General Public License v2.0 or later',
  licenceUrl: 'https://www.gnu.org/licenses/old-licenses/gpl-2.0.html',
  attribution: 'FreeDict Swahili–English dictionary 0.4.4 (B. Wójtowicz, P. Bański et al.), GNU GPL v2 or later, freedict.org.',
  entries: 2577, bytes: 123_456, sha256: 'a'.repeat(64), includes: [],
  csv: { name: 'sw-freedict-swahili-v5-0123456789ab.csv', url: '/downloads/sw-freedict-swahili-v5-0123456789ab.csv', bytes: 234_567, sha256: 'b'.repeat(64) },
};

describe('downloads page', () => {
  it('downloads page - lists every file of the real snapshot with its licence in plain words and the attribution to copy', () => {
    const index = snapshot.downloads?.().index ?? assert.fail('the test snapshot has downloads');
    const page = downloadsPage({ assets: ASSETS, index }).value;
    for (const f of index.files) {
      assert.ok(page.includes(`<a href="${f.url}" download>`), f.name);
      assert.ok(page.includes(f.sha256), f.name);
      assert.ok(page.includes(`${f.entries.toLocaleString('en-GB')} entries`), f.name);
      assert.ok(page.includes(`<code>${f.licence}</code>`), f.name);
      assert.ok(page.includes(escapeHtml(attributionLine(f))), f.name);
      for (const s of f.includes) assert.ok(page.includes(escapeHtml(s.attribution)), `${f.name} credits ${s.source}`);
    }
    assert.match(page, /Share-alike: anything you publish that is built from it/, 'CC BY-SA explained');
    assert.match(page, /include the Apache License 2\.0 text/, 'Apache-2.0 explained');
    assert.match(page, /Keep the Unicode copyright and permission notice/, 'Unicode licence explained');
    assert.match(page, /data-copy="attribution-1"/);
    assert.ok(page.includes(index.version));
    assert.ok(headingsInOrder(page));
  });

  it('downloads page - says what the GPL asks, and gives a source several licences\' credits in one line', () => {
    const withIncludes: DownloadFile = {
      ...gplFile,
      includes: [{ source: 'ipa', sourceName: 'ipa-dict', sourceUrl: 'https://example.org', role: 'pronunciation', licence: 'MIT', licenceName: 'MIT License', licenceUrl: 'https://opensource.org/license/mit', attribution: 'ipa-dict (open-dict-data), MIT License, © 2016 dohliam.' }],
    };
    const page = downloadsPage({ assets: ASSETS, index: { version: 'v5-0123456789ab', format: 'jsonl+gzip', files: [withIncludes] } }).value;
    assert.match(page, /must be\s+released under the GPL as well/);
    assert.match(page, /Keep the copyright notice and the MIT licence text/);
    assert.ok(page.includes(`${escapeHtml(gplFile.attribution)} ipa-dict (open-dict-data), MIT License, © 2016 dohliam.</code>`));
    assert.match(page, /pronunciation from ipa-dict/);
  });

  it('downloads page - a licence it does not know, or a choice of two, is still said plainly', () => {
    const files: DownloadFile[] = [
      { ...gplFile, name: 'xx-a-v5-0.jsonl.gz', licence: 'LicenseRef-Custom', licenceName: 'Custom' },
      { ...gplFile, name: 'xx-b-v5-0.jsonl.gz', licence: 'CC-BY-SA-3.0 OR GFDL-1.3-or-later', licenceName: 'CC BY-SA 3.0 or GFDL' },
    ];
    const page = downloadsPage({ assets: ASSETS, index: { version: 'v5-0', format: 'jsonl+gzip', files } }).value;
    assert.match(page, /Read the licence before re-using the data/);
    assert.match(page, /Your choice of licence\. Credit the source, and share what you build from it under the same licence \(share-alike\)\. Or: Copyleft/);
  });

  it('downloads page - escapes data from the manifest and links licences only when http(s)', () => {
    const hostile: DownloadFile = { ...gplFile, sourceName: HOSTILE, attribution: HOSTILE, licenceName: HOSTILE, licenceUrl: 'javascript:alert(1)', languageName: HOSTILE };
    const page = downloadsPage({ assets: ASSETS, index: { version: HOSTILE, format: 'jsonl+gzip', files: [hostile] } }).value;
    assert.ok(!page.includes('<script>alert'), 'raw <script> from data');
    assert.ok(!page.includes('<img src=x'), 'raw <img> from data');
    assert.ok(!page.includes('javascript:'), 'a javascript: licence URL is not a link');
  });

  it('downloads page - an edition without downloads says so', () => {
    const page = downloadsPage({ assets: ASSETS, index: undefined }).value;
    assert.match(page, /This edition of the dictionary has no downloads/);
    assert.ok(headingsInOrder(page));
  });

  it('downloads page - served at /downloads as a page of the site, linked from every page', async () => {
    const res = await fetch(`${base}/downloads`);
    const body = await res.text();
    assert.equal(res.status, 200, body.slice(0, 500));
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=300');
    assert.match(body, /<a href="\/downloads" aria-current="page">/);
    const home = await (await fetch(`${base}/`)).text();
    assert.match(home, /<a href="\/downloads">/);
  });
});
